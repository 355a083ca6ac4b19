//! `sierra`: see `sierra --help` and docs/commands.md.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // First, while this is the only thread: Mesa and winit complain without a private runtime
    // folder. Kept (and removed at exit) for the whole run.
    let _runtime_dir = sierra::runtime_dir::ensure_private_runtime_dir();
    // Warnings, except the window libraries' start-up notes (XSETTINGS, XRandR's monitor size,
    // egui's sRGB framebuffer remark) that say nothing about Sierra; RUST_LOG overrides.
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("warn,winit=error,egui_wgpu=error"),
    )
    .init();
    // clap prints usage errors itself and exits with status 2.
    let cli = sierra::cli::Cli::parse();
    // Named workers show up as labelled threads in trace.json.
    if let Err(error) = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("rayon-worker-{i}"))
        .build_global()
    {
        log::warn!("could not configure the job threads: {error}");
    }
    match sierra::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (`sierra inspect ... | head -1`) is the reader's choice, not a failure.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        // The GPU went away (docs/faults.md, "Device loss"): its own status, 3.
        Err(error) if sierra::device_loss::is_device_lost(&error) => {
            eprintln!("error: {}", chain_message(&error));
            ExitCode::from(sierra::device_loss::EXIT_DEVICE_LOST)
        }
        Err(error) => {
            eprintln!("error: {}", chain_message(&error));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes joined by ": ", skipping causes whose text the
/// message already holds (many error types print their source in their own message).
fn chain_message(error: &anyhow::Error) -> String {
    let mut message = error.to_string();
    for cause in error.chain().skip(1) {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
    }
    message
}

/// Whether `error` comes from writing to a closed pipe.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
