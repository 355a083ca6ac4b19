// Shared by gltf_summary.mjs and gltf_pose.mjs: the bytes of a .glb named on the command line,
// as an ArrayBuffer for GLTFLoader.parse (exit 1 with a message on stderr when unreadable), and
// the skeleton the scripts report.
import { readFileSync } from 'node:fs';

export function readGlb(file) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    process.exit(1);
  }
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

// The skeleton of the first skinned mesh in `scene` (depth-first, as Object3D.traverse walks
// it), or null when the scene has none.
export function firstSkeleton(scene) {
  let skeleton = null;
  scene.traverse((o) => {
    if (o.isSkinnedMesh && skeleton === null) skeleton = o.skeleton;
  });
  return skeleton;
}
