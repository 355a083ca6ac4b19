//! A static HTTP/1.1 server for the page (native only; `make web` and the browser test): serves
//! one folder on 127.0.0.1 (ES modules and `fetch` do not work from `file://`), refusing any
//! path that leaves it ([`sierra_assets::served_path`], 403 with the message), and takes the
//! test page's results as `POST /result/NAME` (body kept as bytes, in arrival order).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Duration;

/// Largest request body taken (a 1024 × 1024 RGBA frame is 4 MiB).
const MAX_BODY: usize = 64 << 20;

/// A running server; its thread lives as long as the process.
pub struct Server {
    /// Where it listens (127.0.0.1, the port asked for or one the OS picked).
    pub addr: SocketAddr,
    results: Receiver<(String, Vec<u8>)>,
}

impl Server {
    /// Serves `site` on 127.0.0.1:`port` (0: any free port).
    ///
    /// # Errors
    /// The port cannot be bound.
    pub fn start(site: &Path, port: u16) -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        let addr = listener.local_addr()?;
        let (sender, results) = channel();
        let site = site.to_path_buf();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (site, sender) = (site.clone(), sender.clone());
                std::thread::spawn(move || {
                    // A client that hangs up mid-request is its own problem.
                    let _ = handle(stream, &site, &sender);
                });
            }
        });
        Ok(Self { addr, results })
    }

    /// The page's URL for `path` (inside the served folder).
    pub fn url(&self, path: &str) -> String {
        format!("http://{}/{path}", self.addr)
    }

    /// The next `POST /result/NAME` (name, body), waiting at most `timeout`.
    pub fn next_result(&self, timeout: Duration) -> Option<(String, Vec<u8>)> {
        self.results.recv_timeout(timeout).ok()
    }
}

/// One request on `stream`.
fn handle(
    stream: TcpStream,
    site: &Path,
    results: &Sender<(String, Vec<u8>)>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
    }
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let mut out = stream;
    if method == "POST" {
        let Some(name) = path.strip_prefix("/result/").filter(|_| length <= MAX_BODY) else {
            return respond(
                &mut out,
                "400 Bad Request",
                "text/plain",
                b"POST /result/NAME only",
            );
        };
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        let _ = results.send((name.to_owned(), body));
        return respond(&mut out, "200 OK", "text/plain", b"ok");
    }
    match file_for(site, path) {
        Ok(file) => match std::fs::read(&file) {
            Ok(bytes) => respond(&mut out, "200 OK", content_type(&file), &bytes),
            Err(_) => respond(&mut out, "404 Not Found", "text/plain", b"not found"),
        },
        Err(message) => respond(&mut out, "403 Forbidden", "text/plain", message.as_bytes()),
    }
}

/// The file inside `site` that URL path `path` names (`/` is `index.html`).
///
/// # Errors
/// [`sierra_assets::served_path`]'s refusal, or a path that is not valid UTF-8 once decoded.
pub fn file_for(site: &Path, path: &str) -> Result<PathBuf, String> {
    let relative = path.trim_start_matches('/');
    let relative = if relative.is_empty() {
        "index.html"
    } else {
        relative
    };
    let decoded = match sierra_assets::decode_uri(relative, 0) {
        Ok(sierra_assets::UriTarget::Relative(p)) => p,
        Ok(sierra_assets::UriTarget::Data(_)) | Err(_) => {
            return Err(format!("`{path}` is not a file path"));
        }
    };
    let inside = sierra_assets::served_path(&decoded.to_string_lossy())?;
    Ok(site.join(inside))
}

fn respond(out: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    out.write_all(body)?;
    out.flush()
}

/// The MIME type by extension (`application/wasm` lets the browser compile while it downloads).
fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript",
        "wasm" => "application/wasm",
        "gltf" => "model/gltf+json",
        "glb" => "model/gltf-binary",
        "png" => "image/png",
        "json" => "application/json",
        "css" => "text/css",
        _ => "application/octet-stream",
    }
}

/// Writes the sample model ([`crate::sample::files`]) under `site`.
///
/// # Errors
/// Unwritable folder.
pub fn write_sample(site: &Path) -> std::io::Result<()> {
    for (path, bytes) in crate::sample::files() {
        let file = site.join(path);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(file, bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_map_inside_the_site_and_escapes_are_refused() {
        let site = Path::new("/srv/site");
        assert_eq!(file_for(site, "/").unwrap(), site.join("index.html"));
        assert_eq!(
            file_for(site, "/models/My%20Box.gltf").unwrap(),
            site.join("models/My Box.gltf")
        );
        for bad in ["/../secret", "/models/%2e%2e/%2e%2e/x", "/a/b:c"] {
            let e = file_for(site, bad).unwrap_err();
            assert!(
                e.contains("refused") || e.contains("not a file"),
                "{bad}: {e}"
            );
        }
    }
}
