// Sierra's anchor harness for ozz-animation (issue #43): the workload of `sierra bench anim`,
// driven through ozz's public runtime API. Written for this project; it includes ozz's headers
// and links its libraries from a local build (see README.md here). Not built by CI.
//
// Workload (mirrors sierra_anim::synthetic::Crowd): 68 joints (chains of six hanging from the
// first chains), two looping 1 s clips keyed at 30 fps (31 keys) on the rotation and translation
// of every joint (136 keyed tracks per clip), 1,000 characters each at its own phases,
// crossfading the two clips. Full job per character: SamplingJob x2 -> BlendingJob ->
// LocalToModelJob -> skinning palette (model * inverse bind, ozz::math::Float4x4 products).
//
// Usage: ozz_anchor [CHARACTERS=1000] [FRAMES=200]
// Prints one line per figure: "<name>: <ns> ns/character" (fastest frame; stages over all
// characters, each stage timed on its own like `sierra bench anim`'s stages_over_crowd).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

#include "ozz/animation/offline/animation_builder.h"
#include "ozz/animation/offline/raw_animation.h"
#include "ozz/animation/offline/raw_skeleton.h"
#include "ozz/animation/offline/skeleton_builder.h"
#include "ozz/animation/runtime/animation.h"
#include "ozz/animation/runtime/blending_job.h"
#include "ozz/animation/runtime/local_to_model_job.h"
#include "ozz/animation/runtime/sampling_job.h"
#include "ozz/animation/runtime/skeleton.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/soa_transform.h"
#include "ozz/base/memory/unique_ptr.h"

using namespace ozz;
using namespace ozz::animation;

static const int kJoints = 68;

static int parent_of(int j) {
  if (j == 0) return -1;
  if (j % 6 == 0) return (j / 6 - 1) * 2 % j;
  return j - 1;
}

static math::Quaternion quat_z(float a) {
  return math::Quaternion(0.f, 0.f, std::sin(a / 2), std::cos(a / 2));
}

// glam's Quat::from_euler(XYZ, a, b, c) = Rx(a) * Ry(b) * Rz(c).
static math::Quaternion euler_xyz(float a, float b, float c) {
  math::Quaternion qx(std::sin(a / 2), 0.f, 0.f, std::cos(a / 2));
  math::Quaternion qy(0.f, std::sin(b / 2), 0.f, std::cos(b / 2));
  math::Quaternion qz(0.f, 0.f, std::sin(c / 2), std::cos(c / 2));
  return qx * qy * qz;
}

static math::Transform rest_of(int j) {
  math::Transform t = math::Transform::identity();
  t.translation = math::Float3(0.f, 0.1f, 0.f);
  t.rotation = quat_z(0.05f * float(j % 5));
  return t;
}

static void add_children(offline::RawSkeleton::Joint* joint, int j) {
  for (int c = 0; c < kJoints; c++) {
    if (parent_of(c) != j) continue;
    offline::RawSkeleton::Joint child;
    child.name = "joint" + std::to_string(c);
    child.transform = rest_of(c);
    joint->children.push_back(child);
    add_children(&joint->children.back(), c);
  }
}

// ozz orders joints depth-first; `names` maps an ozz joint back to the workload's joint index.
static unique_ptr<Skeleton> build_skeleton() {
  offline::RawSkeleton raw;
  raw.roots.resize(1);
  raw.roots[0].name = "joint0";
  raw.roots[0].transform = rest_of(0);
  add_children(&raw.roots[0], 0);
  return offline::SkeletonBuilder()(raw);
}

// The clip of sierra_anim::synthetic::raw_clip (same keys, phases from `seed`).
static unique_ptr<Animation> build_clip(const Skeleton& skeleton, unsigned seed) {
  offline::RawAnimation raw;
  raw.duration = 1.f;
  raw.tracks.resize(skeleton.num_joints());
  const float tau = 6.283185307f;
  for (int oj = 0; oj < skeleton.num_joints(); oj++) {
    int j = std::atoi(skeleton.joint_names()[oj] + 5);
    float phase = float(unsigned(j) * 2654435761u + seed * 0x9E3779B9u) / 4294967295.f * tau;
    math::Transform rest = rest_of(j);
    math::Float3 base = j == 0 ? math::Float3(0.f, 1.f, 0.f) : rest.translation;
    for (int k = 0; k <= 30; k++) {
      float t = std::min(k / 30.f, 1.f);
      float a = std::sin(t * tau + phase) * 0.4f;
      math::Quaternion q = rest.rotation * euler_xyz(a, 0.5f * a, 0.25f * a);
      raw.tracks[oj].rotations.push_back({t, q});
      float w = std::sin(t * tau * 2.f + phase);
      math::Float3 p(base.x + 0.002f * w, base.y + (j == 0 ? 0.05f * w : 0.f), base.z + 0.001f * w);
      raw.tracks[oj].translations.push_back({t, p});
    }
  }
  return offline::AnimationBuilder()(raw);
}

struct Character {
  SamplingJob::Context ctx_a, ctx_b;
  std::vector<math::SoaTransform> a, b, local;
  std::vector<math::Float4x4> model, palette;
  float phase[3];
};

static double now_ns() {
  return double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count());
}

int main(int argc, char** argv) {
  int characters = argc > 1 ? std::atoi(argv[1]) : 1000;
  int frames = argc > 2 ? std::atoi(argv[2]) : 200;
  if (characters < 1 || frames < 1) {
    std::fprintf(stderr, "usage: ozz_anchor [CHARACTERS] [FRAMES]\n");
    return 2;
  }
  unique_ptr<Skeleton> skeleton = build_skeleton();
  unique_ptr<Animation> clip_a = build_clip(*skeleton, 1), clip_b = build_clip(*skeleton, 2);
  if (!skeleton || !clip_a || !clip_b || skeleton->num_joints() != kJoints) {
    std::fprintf(stderr, "ozz_anchor: building the skeleton or clips failed\n");
    return 1;
  }
  const int soa = skeleton->num_soa_joints();
  std::vector<math::Float4x4> inverse_bind(kJoints, math::Float4x4::identity());
  std::vector<Character> crowd(characters);
  unsigned state = 0x9E3779B9u;
  auto rnd = [&]() {
    state ^= state << 13; state ^= state >> 17; state ^= state << 5;
    return float(state >> 8) / float(1u << 24);
  };
  for (Character& c : crowd) {
    c.ctx_a.Resize(kJoints); c.ctx_b.Resize(kJoints);
    c.a.resize(soa); c.b.resize(soa); c.local.resize(soa);
    c.model.resize(kJoints); c.palette.resize(kJoints);
    c.phase[0] = rnd(); c.phase[1] = rnd(); c.phase[2] = 2.f * rnd();
  }
  auto ratio = [](float t) { return t - std::floor(t); };  // 1 s clips, looping
  auto sample = [&](Character& c, float time) {
    SamplingJob ja;
    ja.animation = clip_a.get(); ja.context = &c.ctx_a; ja.ratio = ratio(time + c.phase[0]);
    ja.output = make_span(c.a);
    SamplingJob jb;
    jb.animation = clip_b.get(); jb.context = &c.ctx_b; jb.ratio = ratio(time * 1.1f + c.phase[1]);
    jb.output = make_span(c.b);
    return ja.Run() && jb.Run();
  };
  auto blend = [&](Character& c, float time) {
    float e = std::fabs(std::fmod(time + c.phase[2], 2.f) - 0.5f);
    float wb = std::min(std::max(e, 0.f), 1.f);
    BlendingJob::Layer layers[2];
    layers[0].transform = make_span(c.a); layers[0].weight = 1.f - wb;
    layers[1].transform = make_span(c.b); layers[1].weight = wb;
    BlendingJob job;
    job.layers = layers; job.rest_pose = skeleton->joint_rest_poses();
    job.output = make_span(c.local);
    return job.Run();
  };
  auto l2m = [&](Character& c) {
    LocalToModelJob job;
    job.skeleton = skeleton.get(); job.input = make_span(c.local); job.output = make_span(c.model);
    return job.Run();
  };
  auto palette = [&](Character& c) {
    for (int j = 0; j < kJoints; j++) c.palette[j] = c.model[j] * inverse_bind[j];
    return true;
  };
  bool ok = true;
  // Fastest pass (and median) of `passes` calls of f over all characters, ns per character.
  auto time_pass = [&](int passes, const std::function<void(float)>& f, double* median) {
    std::vector<double> t;
    float time = 0.f;
    for (int p = 0; p <= passes; p++) {
      time += 1.f / 60.f;
      double s = now_ns();
      f(time);
      double dt = (now_ns() - s) / characters;
      if (p > 0) t.push_back(dt);
    }
    std::sort(t.begin(), t.end());
    if (median) *median = t[t.size() / 2];
    return t[0];
  };
  double median = 0;
  double full = time_pass(frames, [&](float time) {
    for (Character& c : crowd) ok &= sample(c, time) && blend(c, time) && l2m(c) && palette(c);
  }, &median);
  int stage_passes = std::max(frames / 4, 1);
  double ts = time_pass(stage_passes, [&](float time) { for (Character& c : crowd) ok &= sample(c, time); }, nullptr);
  double tb = time_pass(stage_passes, [&](float time) { for (Character& c : crowd) ok &= blend(c, time); }, nullptr);
  double tl = time_pass(stage_passes, [&](float) { for (Character& c : crowd) ok &= l2m(c); }, nullptr);
  double tp = time_pass(stage_passes, [&](float) { for (Character& c : crowd) ok &= palette(c); }, nullptr);
  double tlp = time_pass(stage_passes, [&](float) { for (Character& c : crowd) ok &= l2m(c) && palette(c); }, nullptr);
  if (!ok) {
    std::fprintf(stderr, "ozz_anchor: a job failed to validate\n");
    return 1;
  }
  float sink = 0;
  for (Character& c : crowd) sink += math::GetX(c.palette[kJoints - 1].cols[3]);
  std::printf("ozz characters=%d joints=%d tracks=%d\n", characters, kJoints, 2 * kJoints);
  std::printf("full job: %.1f ns/character (median %.1f)\n", full, median);
  std::printf("sampling 2 clips: %.1f ns/character\n", ts);
  std::printf("blending: %.1f ns/character\n", tb);
  std::printf("local-to-model: %.1f ns/character\n", tl);
  std::printf("palette: %.1f ns/character\n", tp);
  std::printf("local-to-model + palette: %.1f ns/character\n", tlp);
  std::printf("checksum: %g\n", double(sink));
  return 0;
}
