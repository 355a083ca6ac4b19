//! Rules on `sierra_render`'s source: every pipeline and shader module is created through the
//! counting context. (That no crate, this one included, has a module cycle is checked by
//! `sierra_testkit`'s `module_graph` test, over every crate of the workspace.)

use std::path::Path;

use sierra_testkit::module_graph::{code_of, modules};

#[test]
fn every_pipeline_and_shader_module_is_created_through_the_counting_context() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = modules(&src).expect("read src/");
    assert!(modules.len() > 20, "read {} modules", modules.len());
    let context = code_of(&modules["context"]);
    assert!(
        context.contains("device.create_render_pipeline("),
        "the counting context creates pipelines: the search below would find such a call"
    );
    let mut uncounted = Vec::new();
    for (module, source) in modules {
        if module == "context" {
            continue;
        }
        let code = code_of(&source);
        for call in [
            "device.create_render_pipeline(",
            "device.create_compute_pipeline(",
            "device.create_shader_module(",
        ] {
            if code.contains(call) {
                uncounted.push(format!("{module}: {call}"));
            }
        }
    }
    assert!(
        uncounted.is_empty(),
        "create these with GpuContext's counting methods (stats.json's pipelines_created): {uncounted:?}"
    );
}
