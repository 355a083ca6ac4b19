// The model viewer page: drag to orbit, wheel to zoom, a clip picker, play/pause, wireframe,
// models by URL (inside the folder this page is served from) or picked as files.
// The viewer itself is Rust (crates/sierra_web, `make web`); this file only wires the page.
import init, { Viewer, fetch_model, picked_files } from "./pkg/sierra_web.js";

/** Starts the viewer in `doc` (the page's document); resolves to the page's handles. */
export async function startViewer(doc) {
  const $ = (id) => doc.getElementById(id);
  const status = (text) => { $("status").textContent = text; };
  await init();
  if (!navigator.gpu) throw new Error("this browser has no WebGPU (navigator.gpu)");
  const canvas = $("view");
  const fit = () => {
    canvas.width = Math.max(1, Math.round(canvas.clientWidth * devicePixelRatio));
    canvas.height = Math.max(1, Math.round(canvas.clientHeight * devicePixelRatio));
  };
  fit();
  const viewer = await Viewer.create(canvas);
  const page = { viewer, status, loaded: null };
  const show = (files, what) => {
    try {
      const clips = viewer.load(files);
      $("clip").replaceChildren(...clips.map((name, i) => new Option(name || `clip ${i}`, i)));
      $("clip").disabled = clips.length === 0;
      page.loaded = what;
      status(`${what} on ${viewer.adapter()}`);
    } catch (e) {
      status(`error: ${e}`);
      throw e;
    }
  };
  page.loadUrl = async (url) => {
    let files;
    try { files = await fetch_model(url); } catch (e) { status(`error: ${e}`); throw e; }
    show(files, url);
  };
  page.loadFiles = async (fileList) => {
    const list = Array.from(fileList);
    const bytes = await Promise.all(list.map(async (f) => new Uint8Array(await f.arrayBuffer())));
    let files;
    try { files = picked_files(list.map((f) => f.name), bytes); } catch (e) { status(`error: ${e}`); throw e; }
    show(files, list.map((f) => f.name).join(", "));
  };
  $("load").onclick = () => page.loadUrl($("url").value).catch(() => {});
  $("files").onchange = (e) => page.loadFiles(e.target.files).catch(() => {});
  $("clip").onchange = (e) => viewer.set_clip(Number(e.target.value));
  let playing = true;
  $("play").onclick = () => {
    playing = !playing;
    viewer.set_playing(playing);
    $("play").textContent = playing ? "Pause" : "Play";
  };
  $("wire").disabled = !viewer.has_wireframe();
  $("wire").title = viewer.has_wireframe() ? "draw lines" : "WebGPU has no line polygon mode";
  $("wire").onchange = (e) => viewer.set_wireframe(e.target.checked);
  let drag = null;
  canvas.onpointerdown = (e) => { drag = [e.clientX, e.clientY]; canvas.setPointerCapture(e.pointerId); };
  canvas.onpointerup = () => { drag = null; };
  canvas.onpointermove = (e) => {
    if (!drag) return;
    viewer.orbit(e.clientX - drag[0], e.clientY - drag[1]);
    drag = [e.clientX, e.clientY];
  };
  canvas.onwheel = (e) => { e.preventDefault(); viewer.zoom(-Math.sign(e.deltaY)); };
  new ResizeObserver(() => { fit(); viewer.resize(canvas.width, canvas.height); }).observe(canvas);
  let last = performance.now();
  const tick = (now) => {
    try { viewer.frame((now - last) / 1000); } catch (e) { status(`error: ${e}`); }
    // Start-up time: navigation to the end of the first frame drawn with a model (ms).
    if (page.loaded && page.firstFrameMs === undefined) page.firstFrameMs = performance.now();
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const first = new URLSearchParams(location.search).get("model") ?? $("url").value;
  $("url").value = first;
  await page.loadUrl(first).catch(() => {});
  return page;
}
