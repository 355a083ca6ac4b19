// Loads a .glb with three.js's GLTFLoader (the web's reference loader, run in Node)
// and prints what it built as JSON on stdout:
//   { "joints": [name, ...]              skin 0's joints, in skin order,
//     "clips": [{ "name", "duration",    seconds,
//                 "tracks": [{ "name",    three.js track name, e.g. "hand_l.quaternion",
//                              "times": [..], "values": [..] }] }] }
// values are as three.js decoded them (quaternions x, y, z, w per key).
// Usage: node gltf_summary.mjs FILE.glb   (exit 1 with a message on stderr on error)
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { firstSkeleton, readGlb } from './read_glb.mjs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node gltf_summary.mjs FILE.glb');
  process.exit(2);
}

const buffer = readGlb(file);

new GLTFLoader().parse(
  buffer,
  '',
  (gltf) => {
    const skeleton = firstSkeleton(gltf.scene);
    const summary = {
      joints: skeleton ? skeleton.bones.map((b) => b.name) : [],
      clips: gltf.animations.map((clip) => ({
        name: clip.name,
        duration: clip.duration,
        tracks: clip.tracks.map((t) => ({
          name: t.name,
          times: Array.from(t.times),
          values: Array.from(t.values),
        })),
      })),
    };
    process.stdout.write(JSON.stringify(summary));
  },
  (error) => {
    console.error(`${file}: GLTFLoader: ${error.message ?? error}`);
    process.exit(1);
  },
);
