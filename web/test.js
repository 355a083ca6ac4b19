// The browser test's page (crates/sierra_web/tests/browser.rs serves it and reads the results):
// each step POSTs its result to /result/NAME on the test's server, then `done`.
import init, { fetch_model, render_offscreen } from "./pkg/sierra_web.js";
import { startViewer } from "./app.js";

let viewerPage = null;
const frames = async (n) => { for (let i = 0; i < n; i++) await new Promise((r) => requestAnimationFrame(r)); };
/** The page's canvas as RGBA bytes, as shown: call it right after `frames` resolves (a WebGPU
 *  canvas reads back only within the animation frame that drew it). */
const canvasPixels = (doc) => {
  const canvas = doc.getElementById("view");
  const copy = new OffscreenCanvas(canvas.width, canvas.height);
  const g = copy.getContext("2d");
  g.drawImage(canvas, 0, 0);
  return new Uint8Array(g.getImageData(0, 0, canvas.width, canvas.height).data.buffer);
};
const post = (name, body) => fetch(`/result/${name}`, { method: "POST", body });
const message = (e) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/** Runs every step whatever the others did; `done` last. */
export async function runTests(doc) {
  const q = new URLSearchParams(location.search);
  const width = Number(q.get("w") ?? 160), height = Number(q.get("h") ?? 120);
  const steps = {
    // First, as a user opens it: the page (its start-up time is measured to the first frame
    // with the default model), then its file input given the sample's three files: the canvas
    // shows the model.
    "picked.rgba": async () => {
      const page = await startViewer(doc);
      viewerPage = page;
      const names = ["box.gltf", "box.bin", "checker.png"];
      const transfer = new DataTransfer();
      for (const n of names) {
        const blob = await (await fetch(`models/${n}`)).blob();
        transfer.items.add(new File([blob], n));
      }
      const input = doc.getElementById("files");
      input.files = transfer.files;
      for (let i = 0; i < 600 && page.firstFrameMs === undefined; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      input.dispatchEvent(new Event("change"));
      for (let i = 0; i < 200 && page.loaded !== names.join(", "); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      if (page.loaded !== names.join(", ")) throw new Error(`not loaded: ${doc.getElementById("status").textContent}`);
      // A few frames through requestAnimationFrame, then the canvas as the page shows it.
      await frames(5);
      const px = canvasPixels(doc);
      const canvas = doc.getElementById("view");
      await post("picked.size", `${canvas.width}x${canvas.height}`);
      await post("picked.status", doc.getElementById("status").textContent);
      await post("startup.txt", String(page.firstFrameMs));
      return px;
    },
    // The page's controls on the mannequin: its clips in the picker; paused, two frames apart
    // (same picture); then orbited by a drag (another picture); the wireframe box's state.
    "controls.json": async () => {
      if (!viewerPage) throw new Error("the page did not start");
      await viewerPage.loadUrl("models/mannequin.glb");
      const clip = doc.getElementById("clip");
      clip.value = String(clip.options.length - 1);
      clip.dispatchEvent(new Event("change"));
      doc.getElementById("play").click();
      await frames(3);
      const paused = canvasPixels(doc);
      await frames(3);
      const pausedLater = canvasPixels(doc);
      const canvas = doc.getElementById("view");
      canvas.dispatchEvent(new PointerEvent("pointerdown", { clientX: 100, clientY: 100, pointerId: 1 }));
      canvas.dispatchEvent(new PointerEvent("pointermove", { clientX: 260, clientY: 100, pointerId: 1 }));
      canvas.dispatchEvent(new PointerEvent("pointerup", { clientX: 260, clientY: 100, pointerId: 1 }));
      await frames(3);
      const orbited = canvasPixels(doc);
      const mean = (a, b) => a.reduce((s, x, i) => s + Math.abs(x - b[i]), 0) / a.length;
      return JSON.stringify({
        clips: Array.from(clip.options).map((o) => o.text),
        play: doc.getElementById("play").textContent,
        wireframeDisabled: doc.getElementById("wire").disabled,
        pausedMeanDiff: mean(paused, pausedLater),
        orbitMeanDiff: mean(paused, orbited),
      });
    },
    // The sample rendered off-screen at w × h, as the native reference is.
    "url.rgba": async () => {
      await init();
      const files = await fetch_model("models/box.gltf");
      return render_offscreen(files, width, height);
    },
    // The skinned, animated mannequin (GPU skinning and its first clip), as natively.
    "mannequin.rgba": async () => {
      const files = await fetch_model("models/mannequin.glb");
      return render_offscreen(files, width, height);
    },
    // A glTF whose image lies outside the served folder: refused before any fetch of it.
    "escape.txt": async () => {
      try { await fetch_model("models/escape.gltf"); return "loaded (wrong)"; } catch (e) { return message(e); }
    },
    // A model URL leaving the served folder.
    "escape-url.txt": async () => {
      try { await fetch_model("../secret.gltf"); return "loaded (wrong)"; } catch (e) { return message(e); }
    },
    // The same refusal through the page's own Load button: the status line shows the message.
    "escape-page.txt": async () => {
      if (!viewerPage) throw new Error("the page did not start");
      doc.getElementById("url").value = "models/escape.gltf";
      doc.getElementById("load").click();
      for (let i = 0; i < 100 && !doc.getElementById("status").textContent.startsWith("error"); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      return doc.getElementById("status").textContent;
    },
  };
  for (const [name, run] of Object.entries(steps)) {
    try {
      await post(name, await run());
    } catch (e) {
      await post(`${name}.error`, message(e));
    }
  }
  await post("done", "");
}
