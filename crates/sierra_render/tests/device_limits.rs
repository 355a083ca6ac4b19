//! The device is created with WebGPU's default limits (not the adapter's, which on Mesa's
//! software driver allow 16384-texel textures and 2 GiB storage bindings) and only the optional
//! features Sierra uses, so the render tests running on it show the renderer fits a real GPU's
//! limits.

use sierra_render::context::{required_limits, OPTIONAL_FEATURES};
use sierra_render::GpuContext;

#[test]
fn device_has_default_limits_and_only_the_optional_features_used() {
    let ctx = GpuContext::headless().unwrap_or_else(|e| panic!("{e}"));
    let limits = ctx.device.limits();
    let default = sierra_render::wgpu::Limits::default();
    if default.check_limits(&ctx.adapter.limits()) {
        assert_eq!(
            limits, default,
            "an adapter above the defaults gets exactly the defaults"
        );
    } else {
        assert_eq!(limits, sierra_render::wgpu::Limits::downlevel_defaults());
    }
    assert_eq!(limits, required_limits(&ctx.adapter.limits()));
    assert!(
        OPTIONAL_FEATURES.contains(ctx.device.features()),
        "requested only optional features: {:?}",
        ctx.device.features()
    );
    assert_eq!(ctx.device.features(), ctx.features);
}
