//! The HTTP/1.x the server speaks, read within bounds: a request line or header line of at most
//! `MAX_LINE` bytes, at most `MAX_HEADERS` headers, a body of at most `MAX_BODY` bytes (its
//! declared length is checked before a byte of it is read, and it is kept only as it arrives),
//! a read that waits at most `READ_TIMEOUT` and a request that arrives within `REQUEST_TIMEOUT`,
//! and at most `MAX_CONNECTIONS` connections at once.
//! Anything past a bound is refused with its status and `{"error": …}`; one request per
//! connection (`Connection: close`).

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// The largest body taken: 8 MiB, room for a `quatre match --out` file of several hundred games
/// sent to `POST /api/replay` (an engine game of hyperchess on its 3x3 boards is about 12 KB).
pub const MAX_BODY: u64 = 8 << 20;
/// The longest request line or header line, in bytes.
pub const MAX_LINE: usize = 8 << 10;
/// The most headers in one request.
pub const MAX_HEADERS: usize = 100;
/// The longest wait for the next bytes of a request.
pub const READ_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest a whole request may take to arrive (a client sending a byte now and then is cut
/// off here, not kept for ever a connection at a time).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// The most connections served at once; one more is answered 503 and closed.
pub const MAX_CONNECTIONS: usize = 64;

/// A request read in full.
pub struct Request {
    pub method: String,
    /// The path and query as sent (`/api/state?id=1`).
    pub target: String,
    pub body: Vec<u8>,
}

/// Why no request was read.
pub enum Unread {
    /// The client went away (or sent nothing): there is no one to answer.
    Gone,
    /// The request is refused: its status and one line saying why.
    Refused(u16, String),
}

fn refused(status: u16, message: impl Into<String>) -> Unread {
    Unread::Refused(status, message.into())
}

fn io_error(e: std::io::Error) -> Unread {
    match e.kind() {
        ErrorKind::WouldBlock | ErrorKind::TimedOut => refused(
            408,
            format!(
                "the request did not arrive: nothing came for {} s, or it took more than {} s in all",
                READ_TIMEOUT.as_secs(),
                REQUEST_TIMEOUT.as_secs()
            ),
        ),
        _ => Unread::Gone,
    }
}

/// The stream read until a deadline: each read waits at most [`READ_TIMEOUT`] and never past
/// the deadline, after which reads fail as timed out.
struct Until<'a> {
    stream: &'a TcpStream,
    deadline: Instant,
}

impl Read for Until<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left.min(READ_TIMEOUT)))?;
        let mut s = self.stream;
        s.read(buf)
    }
}

/// One line ending in LF (CR LF or LF), without its end; None at the end of the stream.
fn line(r: &mut impl BufRead, too_long: (u16, &str)) -> Result<Option<String>, Unread> {
    let mut buf = Vec::new();
    // A line of MAX_LINE bytes is taken with its CR LF.
    r.by_ref()
        .take(MAX_LINE as u64 + 2)
        .read_until(b'\n', &mut buf)
        .map_err(io_error)?;
    if buf.is_empty() {
        return Ok(None);
    }
    let too_long_error = || {
        refused(
            too_long.0,
            format!("{} is longer than {} bytes", too_long.1, MAX_LINE),
        )
    };
    if buf.pop() != Some(b'\n') {
        return Err(if buf.len() >= MAX_LINE {
            too_long_error()
        } else {
            Unread::Gone
        });
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    if buf.len() > MAX_LINE {
        return Err(too_long_error());
    }
    String::from_utf8(buf)
        .map(Some)
        .map_err(|_| refused(400, format!("{} is not UTF-8 text", too_long.1)))
}

/// Reads one request from `stream`, answering `100 Continue` when the client waits for it;
/// the whole request must arrive within [`REQUEST_TIMEOUT`].
pub fn read_request(stream: &TcpStream) -> Result<Request, Unread> {
    read_request_within(stream, REQUEST_TIMEOUT)
}

fn read_request_within(stream: &TcpStream, total: Duration) -> Result<Request, Unread> {
    let mut r = BufReader::new(Until {
        stream,
        deadline: Instant::now() + total,
    });
    // A blank line or two before the request line is tolerated (RFC 9112, 2.2).
    let mut first = String::new();
    for _ in 0..3 {
        match line(&mut r, (414, "the request line"))? {
            None => return Err(Unread::Gone),
            Some(l) if l.is_empty() => continue,
            Some(l) => {
                first = l;
                break;
            }
        }
    }
    let parts: Vec<&str> = first.split(' ').collect();
    let (method, target) = match parts[..] {
        [m, t, v] if !m.is_empty() && t.starts_with('/') && v.starts_with("HTTP/1.") => (m, t),
        _ => {
            return Err(refused(
                400,
                format!(
                    "not an HTTP request line (METHOD /path HTTP/1.1): {:?}",
                    crate::truncate_to(&first, 80)
                ),
            ))
        }
    };
    let mut length: Option<u64> = None;
    let mut continues = false;
    let mut count = 0;
    loop {
        let h = line(&mut r, (431, "a header line"))?.ok_or(Unread::Gone)?;
        if h.is_empty() {
            break;
        }
        count += 1;
        if count > MAX_HEADERS {
            return Err(refused(
                431,
                format!("the request has more than {} headers", MAX_HEADERS),
            ));
        }
        let (name, value) = h.split_once(':').ok_or_else(|| {
            refused(
                400,
                format!(
                    "a header line without ':': {:?}",
                    crate::truncate_to(&h, 80)
                ),
            )
        })?;
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "content-length" => {
                let n = content_length(value)?;
                if length.is_some_and(|l| l != n) {
                    return Err(refused(400, "the request has two different Content-Lengths"));
                }
                length = Some(n);
            }
            "transfer-encoding" => {
                return Err(refused(
                    501,
                    "a body sent in chunks (Transfer-Encoding) is not taken: send it with a Content-Length",
                ))
            }
            "expect" if value.eq_ignore_ascii_case("100-continue") => continues = true,
            "expect" => {
                return Err(refused(
                    417,
                    format!(
                        "Expect: {:?} is not understood (only 100-continue is)",
                        crate::truncate_to(value, 40)
                    ),
                ))
            }
            _ => {}
        }
    }
    let length = length.unwrap_or(0);
    if continues && length > 0 {
        let mut w = stream;
        let _ = w.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let mut body = Vec::new();
    r.take(length).read_to_end(&mut body).map_err(io_error)?;
    if (body.len() as u64) < length {
        return Err(Unread::Gone);
    }
    Ok(Request {
        method: method.to_string(),
        target: target.to_string(),
        body,
    })
}

/// A Content-Length's value, refused when it is not a number (400) or past `MAX_BODY` (413).
fn content_length(value: &str) -> Result<u64, Unread> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refused(
            400,
            format!(
                "Content-Length must be a whole number of bytes, not {:?}",
                crate::truncate_to(value, 40)
            ),
        ));
    }
    match value.parse::<u64>() {
        Ok(n) if n <= MAX_BODY => Ok(n),
        _ => Err(refused(
            413,
            format!(
                "the request's body ({} bytes) is larger than the {} bytes (8 MiB) the server takes",
                crate::truncate_to(value, 40),
                MAX_BODY
            ),
        )),
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        414 => "URI Too Long",
        417 => "Expectation Failed",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Writes the response and closes the connection: the write side first, then what the client
/// may still be sending (a refused body) is read and dropped, a bounded amount for a bounded
/// time, so that the client reads the answer rather than a reset.
pub fn respond(stream: &TcpStream, status: u16, kind: &str, body: &[u8], head_only: bool) {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        status,
        reason(status),
        kind,
        body.len()
    );
    let mut w = stream;
    let sent = w
        .write_all(head.as_bytes())
        .and_then(|_| if head_only { Ok(()) } else { w.write_all(body) })
        .and_then(|_| w.flush());
    if sent.is_err() {
        return;
    }
    let _ = stream.shutdown(Shutdown::Write);
    let mut buf = [0u8; 8192];
    let mut left: usize = 1 << 20;
    // Two seconds in all, however slowly the client sends (each read's timeout alone would let
    // a byte every 1.9 s hold the connection).
    let mut r = Until {
        stream,
        deadline: Instant::now() + Duration::from_secs(2),
    };
    while left > 0 {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => left = left.saturating_sub(n),
        }
    }
}

/// Answers 503 to a connection past [`MAX_CONNECTIONS`] without reading it (the thread that
/// takes connections must not wait on one), and closes it.
pub fn busy(stream: &TcpStream) {
    let body = r#"{"error":"the server is busy: too many connections at once, try again"}"#;
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let mut w = stream;
    let _ = write!(
        w,
        "HTTP/1.1 503 {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
        reason(503),
        body.len(),
        body
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// A line of exactly `MAX_LINE` bytes is taken (with its CR LF); one byte more is refused.
    #[test]
    fn a_line_of_the_bound_is_taken_and_one_longer_refused() {
        let exact = format!("{}\r\n", "a".repeat(MAX_LINE));
        let mut r = std::io::Cursor::new(exact.into_bytes());
        assert_eq!(
            line(&mut r, (431, "a line"))
                .ok()
                .flatten()
                .map(|l| l.len()),
            Some(MAX_LINE)
        );
        let longer = format!("{}\r\n", "a".repeat(MAX_LINE + 1));
        let mut r = std::io::Cursor::new(longer.into_bytes());
        assert!(matches!(
            line(&mut r, (431, "a line")),
            Err(Unread::Refused(431, _))
        ));
    }

    /// A client that sends a byte every 20 ms never waits long enough for the per-read timeout,
    /// but the whole request's deadline still ends it: 408.
    #[test]
    fn a_trickling_request_is_cut_off_at_the_deadline() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let client = std::thread::spawn(move || {
            let mut c = TcpStream::connect(addr).unwrap();
            for b in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "
                .iter()
                .cycle()
                .take(400)
            {
                if c.write_all(&[*b]).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let (stream, _) = listener.accept().unwrap();
        let t = Instant::now();
        let r = read_request_within(&stream, Duration::from_millis(300));
        assert!(matches!(r, Err(Unread::Refused(408, _))), "not refused 408");
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        drop(stream);
        client.join().unwrap();
    }
}
