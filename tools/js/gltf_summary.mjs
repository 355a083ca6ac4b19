// Loads a .glb with three.js's GLTFLoader (the web's reference loader, run in Node)
// and prints what it built as JSON on stdout:
//   { "joints": [name, ...]              skin 0's joints, in skin order,
//     "clips": [{ "name", "duration",    seconds,
//                 "tracks": [{ "name",    three.js track name, e.g. "hand_l.quaternion",
//                              "times": [..], "values": [..] }] }] }
// values are as three.js decoded them (quaternions x, y, z, w per key).
// Usage: node gltf_summary.mjs FILE.glb   (exit 1 with a message on stderr on error)
import { readFileSync } from 'node:fs';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: node gltf_summary.mjs FILE.glb');
  process.exit(2);
}

let bytes;
try {
  bytes = readFileSync(file);
} catch (e) {
  console.error(`${file}: ${e.message}`);
  process.exit(1);
}
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

new GLTFLoader().parse(
  buffer,
  '',
  (gltf) => {
    let skeleton = null;
    gltf.scene.traverse((o) => {
      if (o.isSkinnedMesh && skeleton === null) skeleton = o.skeleton;
    });
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
