//! glTF URIs (glTF 2.0 §3.6.1 and §3.8.2: RFC 3986 URI references; `data:` URIs per RFC 2397).

use std::path::PathBuf;

/// What a glTF `uri` refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UriTarget {
    /// The bytes of a `data:` URI.
    Data(Vec<u8>),
    /// A path relative to the referring file's folder, percent-decoded.
    Relative(PathBuf),
}

/// Decodes a glTF `uri`: a `data:` URI (base64 or percent-encoded payload) to its bytes, at
/// most `max_bytes` of them; a relative reference to a percent-decoded path (`My%20Tex.png`
/// → `My Tex.png`, `..%2Fx` → `../x`, which the root then refuses if it climbs out).
///
/// # Errors
/// A message for: any other scheme (`file:`, `http:`, a drive letter), a network-path
/// reference (`//host/...`), a query or fragment, an encoded NUL, a malformed `data:` URI
/// (with the offset of a bad base64 character), or a payload over `max_bytes`.
pub fn decode_uri(uri: &str, max_bytes: u64) -> Result<UriTarget, String> {
    if let Some(scheme) = scheme_of(uri) {
        if scheme.eq_ignore_ascii_case("data") {
            return decode_data(&uri[5..], max_bytes).map(UriTarget::Data);
        }
        return Err(format!(
            "`{scheme}:` URIs are refused: a glTF may only reference files by a path relative to it, or embed them as data: URIs"
        ));
    }
    if uri.starts_with("//") {
        return Err("network-path references (`//host/...`) are refused".into());
    }
    if uri.contains(['?', '#']) {
        return Err("a file reference with a query (`?`) or fragment (`#`) is refused".into());
    }
    let bytes: Vec<u8> = percent_encoding::percent_decode_str(uri).collect();
    if bytes.contains(&0) {
        return Err("the URI decodes to a path containing NUL".into());
    }
    if bytes.is_empty() {
        return Err("the URI is empty".into());
    }
    Ok(UriTarget::Relative(path_from_bytes(bytes)?))
}

#[cfg(unix)]
fn path_from_bytes(bytes: Vec<u8>) -> Result<PathBuf, String> {
    use std::os::unix::ffi::OsStringExt;
    Ok(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: Vec<u8>) -> Result<PathBuf, String> {
    String::from_utf8(bytes)
        .map(PathBuf::from)
        .map_err(|_| "the URI does not decode to UTF-8".to_string())
}

/// The scheme of `uri` if it has one (RFC 3986 §3.1: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`).
fn scheme_of(uri: &str) -> Option<&str> {
    let colon = uri.find(':')?;
    let scheme = &uri[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// `MEDIATYPE[;base64],PAYLOAD` (RFC 2397).
fn decode_data(rest: &str, max_bytes: u64) -> Result<Vec<u8>, String> {
    let Some((header, payload)) = rest.split_once(',') else {
        return Err("data: URI has no `,` before its payload".into());
    };
    let too_big = |n: u64| {
        format!("data: URI payload decodes to {n} bytes, more than the limit of {max_bytes} bytes (raise it with --max-file-bytes)")
    };
    if header.to_ascii_lowercase().ends_with(";base64") {
        let padded = payload.len() as u64 / 4 * 3;
        if padded > max_bytes.saturating_add(3) {
            return Err(too_big(padded));
        }
        let bytes = base64::decode(payload).map_err(|e| match e {
            base64::DecodeError::InvalidByte(offset, byte) => format!(
                "data: URI is not valid base64: byte {offset} of the payload is {}",
                describe_byte(byte)
            ),
            base64::DecodeError::InvalidLength => format!(
                "data: URI is not valid base64: the payload's length {} is not a whole number of base64 groups",
                payload.len()
            ),
            base64::DecodeError::InvalidLastSymbol(offset, byte) => format!(
                "data: URI is not valid base64: the last symbol {} at byte {offset} has trailing bits set",
                describe_byte(byte)
            ),
        })?;
        if bytes.len() as u64 > max_bytes {
            return Err(too_big(bytes.len() as u64));
        }
        Ok(bytes)
    } else {
        let bytes: Vec<u8> = percent_encoding::percent_decode_str(payload).collect();
        if bytes.len() as u64 > max_bytes {
            return Err(too_big(bytes.len() as u64));
        }
        Ok(bytes)
    }
}

fn describe_byte(byte: u8) -> String {
    if byte.is_ascii_graphic() {
        format!("`{}` (not a base64 character)", byte as char)
    } else {
        format!("0x{byte:02x} (not a base64 character)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_references_are_percent_decoded() {
        assert_eq!(
            decode_uri("My%20Tex.png", 10),
            Ok(UriTarget::Relative("My Tex.png".into()))
        );
        assert_eq!(
            decode_uri("..%2F..%2Fx.bin", 10),
            Ok(UriTarget::Relative("../../x.bin".into()))
        );
        assert_eq!(
            decode_uri("sub/a.bin", 10),
            Ok(UriTarget::Relative("sub/a.bin".into()))
        );
    }

    #[test]
    fn schemes_and_odd_references_are_refused() {
        for (uri, says) in [
            ("file:///etc/passwd", "`file:` URIs are refused"),
            ("FILE:x.bin", "`FILE:` URIs are refused"),
            ("http://example.com/a.bin", "`http:`"),
            ("C:/x.bin", "`C:`"),
            ("//host/share/x.bin", "network-path"),
            ("a.bin?x=1", "query"),
            ("a%00.bin", "NUL"),
            ("", "empty"),
        ] {
            let err = decode_uri(uri, 10).unwrap_err();
            assert!(err.contains(says), "{uri}: {err}");
        }
    }

    #[test]
    fn data_uris_decode_and_say_where_they_are_bad() {
        assert_eq!(
            decode_uri("data:application/octet-stream;base64,AAEC", 10),
            Ok(UriTarget::Data(vec![0, 1, 2]))
        );
        assert_eq!(
            decode_uri("data:,a%20b", 10),
            Ok(UriTarget::Data(b"a b".to_vec()))
        );
        let err = decode_uri("data:application/octet-stream;base64,@AAA", 10).unwrap_err();
        assert_eq!(
            err,
            "data: URI is not valid base64: byte 0 of the payload is `@` (not a base64 character)"
        );
        let err = decode_uri("data:application/octet-stream;base64,AAAAAAAA", 3).unwrap_err();
        assert!(err.contains("6 bytes, more than the limit of 3"), "{err}");
    }
}
