//! Sierra in the browser (issue #45, `docs/web.md`): the model viewer page's wasm entry on
//! WebGPU, built with `make web` (`wasm-bindgen --target web`) and served from 127.0.0.1.
//!
//! - [`scene`]: the page's model and viewer state as frames, through `sierra view`'s frame
//!   source (`sierra_content::model_frames`) and the one renderer, on every target;
//! - [`references`]: the files a glTF needs, each URL checked to stay inside the served folder
//!   before anything is fetched;
//! - [`sample`]: the textured model Sierra makes itself for the page and the browser test;
//! - `page` (wasm32): the bindings `web/app.js` calls (viewer, fetch, picked files, the test's
//!   off-screen frame);
//! - [`serve`] (native): the static server of `make web` and the browser test, which also takes
//!   the test page's results.

#![warn(missing_docs)]

#[cfg(target_arch = "wasm32")]
mod page;
pub mod references;
pub mod sample;
pub mod scene;
#[cfg(not(target_arch = "wasm32"))]
pub mod serve;

#[cfg(target_arch = "wasm32")]
pub use page::{fetch_model, picked_files, render_offscreen, ModelFiles, Viewer};
