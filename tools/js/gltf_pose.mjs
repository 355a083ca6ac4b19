// Poses a .glb with three.js (GLTFLoader + MeshoptDecoder, the web's reference loader, in Node)
// and prints skin 0's joints as JSON on stdout, as `sierra pose` reports them:
//   { "clip": name, "time": seconds, "duration": seconds,
//     "joints": [{ "name", "world": [16 numbers, column-major] }] }   (skin order)
// `world` is the joint's world matrix after three.js's AnimationMixer applied only clip CLIP
// (index) at TIME seconds to the file's rest pose, each node's quaternion normalised. Images are not decoded (Node has no image
// decoder); the skeleton does not need them.
// Usage: node gltf_pose.mjs FILE.glb CLIP_INDEX TIME   (exit 1 with a message on stderr)
import { AnimationMixer, LoopOnce } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { firstSkeleton, readGlb } from './read_glb.mjs';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';

const [file, clipArg, timeArg] = process.argv.slice(2);
if (!file || clipArg === undefined || timeArg === undefined) {
  console.error('usage: node gltf_pose.mjs FILE.glb CLIP_INDEX TIME');
  process.exit(2);
}

const buffer = readGlb(file);

// Textures cannot load in Node; skipping them keeps the loader quiet and the skeleton intact.
const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
loader.register((parser) => ({
  name: 'sierra_no_textures',
  loadTexture: () => Promise.resolve(null),
}));

loader.parse(
  buffer,
  '',
  (gltf) => {
    const skeleton = firstSkeleton(gltf.scene);
    if (skeleton === null) {
      console.error(`${file}: no skinned mesh`);
      process.exit(1);
    }
    const clip = gltf.animations[Number(clipArg)];
    if (!clip) {
      console.error(`${file}: no clip ${clipArg} (${gltf.animations.length} clips)`);
      process.exit(1);
    }
    const time = Math.min(Math.max(Number(timeArg), 0), clip.duration);
    const mixer = new AnimationMixer(gltf.scene);
    const action = mixer.clipAction(clip);
    action.setLoop(LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    mixer.setTime(time);
    // glTF 2.0 §3.11: rotations are unit quaternions. 16-bit normalised keys (gltfpack) decode
    // to ones off unit length by up to ~1e-4, which three.js's Matrix4.compose (written for unit
    // quaternions) turns into a scale; Sierra normalises, so compare rotations, not that scale.
    gltf.scene.traverse((o) => o.quaternion.normalize());
    gltf.scene.updateMatrixWorld(true);
    const report = {
      clip: clip.name,
      time,
      duration: clip.duration,
      joints: skeleton.bones.map((b) => ({ name: b.name, world: Array.from(b.matrixWorld.elements) })),
    };
    process.stdout.write(JSON.stringify(report));
  },
  (error) => {
    console.error(`${file}: GLTFLoader: ${error.message ?? error}`);
    process.exit(1);
  },
);
