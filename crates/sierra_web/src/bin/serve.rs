//! `sierra-web-serve SITE [--port N]`: writes the sample model into `SITE/models` and serves
//! `SITE` (the page `make web` assembled) on 127.0.0.1, printing the address, until stopped.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use std::path::PathBuf;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut site, mut port) = (None, 8080u16);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--port" => match it.next().and_then(|p| p.parse().ok()) {
                Some(p) => port = p,
                None => return fail("--port needs a number (0: any free port)"),
            },
            other if site.is_none() && !other.starts_with('-') => site = Some(PathBuf::from(other)),
            other => return fail(&format!("unexpected argument `{other}`")),
        }
    }
    let Some(site) = site else {
        return fail("usage: sierra-web-serve SITE [--port N]");
    };
    if let Err(e) = sierra_web::serve::write_sample(&site) {
        return fail(&format!(
            "{}: cannot write the sample model: {e}",
            site.display()
        ));
    }
    let server = match sierra_web::serve::Server::start(&site, port) {
        Ok(s) => s,
        Err(e) => return fail(&format!("127.0.0.1:{port}: {e}")),
    };
    println!("Sierra web viewer: {}", server.url(""));
    println!("(serving {}; Ctrl-C stops)", site.display());
    loop {
        std::thread::park();
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn fail(message: &str) -> std::process::ExitCode {
    eprintln!("sierra-web-serve: {message}");
    std::process::ExitCode::FAILURE
}

#[cfg(target_arch = "wasm32")]
fn main() {}
