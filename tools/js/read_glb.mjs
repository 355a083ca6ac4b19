// The bytes of a .glb named on the command line, as an ArrayBuffer for GLTFLoader.parse
// (exit 1 with a message on stderr when unreadable). Shared by gltf_summary.mjs and gltf_pose.mjs.
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
