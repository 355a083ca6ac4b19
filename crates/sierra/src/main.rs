//! `sierra`: see `sierra --help` and the README's CLI reference.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    // clap prints usage errors itself and exits with status 2.
    let cli = sierra::cli::Cli::parse();
    match sierra::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
