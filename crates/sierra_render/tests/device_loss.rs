//! Device loss (issue #44) at the renderer's level: after `Device::destroy` (the closest wgpu
//! offers to a driver losing the device) wgpu reports the loss through its device-lost callback
//! at the next poll, and from then on every `GpuContext` operation, a frame and a read-back end
//! with `RenderError::DeviceLost` — no panic, no hang (each call returns within a bound), no
//! call into wgpu. The negative control: the same operations on the same context before the
//! loss succeed and no loss is reported.

mod support;

use std::time::{Duration, Instant};

use sierra_render::{readback, wgpu, GpuContext, RenderError};
use support::{context, renderer_with_mesh, white_cube_frame};

/// Generous bound on one call after the loss: a wait must end within a poll slice, not hang.
const BOUND: Duration = Duration::from_secs(10);

fn expect_lost<T>(what: &str, result: sierra_render::Result<T>) -> String {
    match result {
        Err(e @ RenderError::DeviceLost { .. }) => e.to_string(),
        Err(other) => panic!("{what}: expected DeviceLost, got {other}"),
        Ok(_) => panic!("{what}: succeeded on a lost device"),
    }
}

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let value = f();
    assert!(
        start.elapsed() < BOUND,
        "{what} took {:?} on a lost device",
        start.elapsed()
    );
    value
}

fn staging(ctx: &GpuContext) -> sierra_render::Result<wgpu::Buffer> {
    ctx.create_buffer(&wgpu::BufferDescriptor {
        label: Some("after"),
        size: 256,
        usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

#[test]
fn a_destroyed_device_is_reported_and_every_later_use_is_refused() {
    let ctx = context();
    let (mut headless, _) = renderer_with_mesh(
        &ctx,
        (32, 32),
        &sierra_render::primitives::cube(1.0),
        "cube",
    );
    let frame = white_cube_frame(&ctx, &mut headless, glam::Mat4::IDENTITY);

    // Negative control: the same operations work before the loss.
    let (before, _) = headless.render(&ctx, &frame).unwrap();
    assert!(before.pixels().any(|p| p.0[0] > 200), "the cube is drawn");
    let buffer = staging(&ctx).unwrap();
    readback::read_buffer(&ctx, &buffer).unwrap();
    ctx.wait_idle("before").unwrap();
    ctx.poll_device("before").unwrap();
    ctx.check_device("before").unwrap();
    assert_eq!(ctx.device_lost(), None);

    ctx.device.destroy();
    // The first poll after `destroy` reports the loss (`wgpu_reports_a_destroy_…` below).
    expect_lost(
        "noticing",
        timed("noticing", || ctx.poll_device("noticing")),
    );
    let loss = ctx.device_lost().expect("the loss is recorded");
    assert_eq!(loss.reason, wgpu::DeviceLostReason::Destroyed);

    let message = expect_lost(
        "a frame",
        timed("a frame", || headless.render(&ctx, &frame)),
    );
    assert!(
        message.contains("GPU device lost while rendering a frame")
            && message.contains("destroyed"),
        "{message}"
    );
    expect_lost(
        "reading a texture",
        timed("reading a texture", || {
            readback::read_texture_rgba(&ctx, &headless.target.texture)
        }),
    );
    expect_lost(
        "reading a buffer",
        timed("reading a buffer", || readback::read_buffer(&ctx, &buffer)),
    );
    expect_lost("creating a buffer", timed("creating", || staging(&ctx)));
    expect_lost("waiting", timed("waiting", || ctx.wait_idle("waiting")));
    expect_lost("polling", timed("polling", || ctx.poll_device("polling")));
    expect_lost(
        "uncaptured errors",
        ctx.take_uncaptured_errors("checking errors"),
    );
    expect_lost(
        "a scoped call",
        ctx.scoped(|| "a scoped call".to_owned(), || unreachable!("not run")),
    );
}

/// A loss noticed late: the device is destroyed without the poll that lets wgpu report it (as a
/// loss the driver reports in the middle of a frame), so the next frame starts on a device that
/// looks alive. The frame runs against invalid resources (wgpu's own `create_buffer_init`
/// would panic there; `buffer_init::create_buffer_init` does not) and ends with `DeviceLost` when
/// its read-back polls; a buffer created with contents on such a device is refused the same
/// way.
#[test]
fn a_loss_noticed_late_ends_the_frame_with_device_lost_not_a_panic() {
    let ctx = context();
    let (mut headless, _) = renderer_with_mesh(
        &ctx,
        (32, 32),
        &sierra_render::primitives::cube(1.0),
        "cube",
    );
    let frame = white_cube_frame(&ctx, &mut headless, glam::Mat4::IDENTITY);
    headless.render(&ctx, &frame).unwrap();
    ctx.device.destroy();
    let message = expect_lost(
        "a frame after destroy",
        timed("a frame", || headless.render(&ctx, &frame)),
    );
    assert!(message.contains("the device was destroyed"), "{message}");

    let other = context();
    other.device.destroy();
    assert_eq!(other.device_lost(), None);
    expect_lost(
        "a buffer with contents",
        timed("creating", || {
            other.create_buffer_init("late", &[1, 2, 3, 4], wgpu::BufferUsages::UNIFORM)
        }),
    );
}

/// What wgpu itself does (the behaviour `sierra::device_loss::inject` relies on): `destroy`
/// marks the device invalid at once but runs the device-lost callback only at the next poll,
/// once the queue is empty, with the reason `Destroyed` and no message.
#[test]
fn wgpu_reports_a_destroy_through_the_callback_at_the_next_poll() {
    let ctx = context();
    ctx.device.destroy();
    assert_eq!(ctx.device_lost(), None, "no callback before a poll");
    let start = Instant::now();
    // The poll reports the loss it caused (the callback ran inside it).
    let error = ctx.poll_device("the first poll after destroy").unwrap_err();
    assert!(error.is_device_lost(), "{error}");
    assert!(start.elapsed() < BOUND);
    let loss = ctx.device_lost().expect("reported by the poll");
    assert_eq!(loss.reason, wgpu::DeviceLostReason::Destroyed);
    assert_eq!(loss.message, "");
}
