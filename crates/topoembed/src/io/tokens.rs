//! Whitespace-separated tokens with their line numbers, for readers whose
//! errors name `file:line`.

use std::path::Path;

use crate::error::{Error, Result};

/// The tokens of a text file, in order, each with its 1-based line.
pub(super) struct Tokens<'a> {
    path: &'a Path,
    text: &'a str,
    pos: usize,
    line: usize,
    /// Line of the last token handed out (for errors about it).
    last_line: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(path: &'a Path, text: &'a str) -> Tokens<'a> {
        Tokens {
            path,
            text,
            pos: 0,
            line: 1,
            last_line: 1,
        }
    }

    /// The next token, or `None` at the end of the file.
    pub fn next_token(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            if bytes[self.pos] == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        if self.pos == bytes.len() {
            // Errors at the end of the file point at its last token's line.
            return None;
        }
        let start = self.pos;
        while self.pos < bytes.len() && !bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        self.last_line = self.line;
        Some(&self.text[start..self.pos])
    }

    /// The next token, which must be there: `what` says what was expected.
    pub fn expect(&mut self, what: &str) -> Result<&'a str> {
        self.next_token()
            .ok_or_else(|| self.error(&format!("the file ends where {what} was expected")))
    }

    /// The next token as an unsigned integer no larger than `max`.
    pub fn number(&mut self, what: &str, max: u64) -> Result<u64> {
        self.number_with(|| what.to_string(), max)
    }

    /// [`Tokens::number`] with the description built only for an error
    /// (readers call this once per token of files with millions of them).
    pub fn number_with(&mut self, what: impl Fn() -> String, max: u64) -> Result<u64> {
        let Some(token) = self.next_token() else {
            return Err(self.error(&format!("the file ends where {} was expected", what())));
        };
        match token.parse::<u64>() {
            Ok(x) if x <= max => Ok(x),
            Ok(x) => Err(self.error(&format!("{} is {x}, more than {max}", what()))),
            Err(_) => Err(self.error(&format!("expected {}, found '{}'", what(), shorten(token)))),
        }
    }

    /// Byte offset of what is left to read.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Line of the last token read.
    pub fn token_line(&self) -> usize {
        self.last_line
    }

    /// An error at the line of the last token read.
    pub fn error(&self, message: &str) -> Error {
        Error::File(format!(
            "{}:{}: {message}",
            self.path.display(),
            self.last_line
        ))
    }

    /// Fails if anything but whitespace is left.
    pub fn finish(&mut self, what: &str) -> Result<()> {
        match self.next_token() {
            None => Ok(()),
            Some(t) => Err(self.error(&format!("unexpected '{}' after {what}", shorten(t)))),
        }
    }
}

/// A token cut to a readable length for messages.
fn shorten(token: &str) -> String {
    if token.chars().count() > 24 {
        format!("{}...", token.chars().take(24).collect::<String>())
    } else {
        token.to_string()
    }
}

/// Reads a whole file as UTF-8 text.
pub(super) fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::File(format!("{}: cannot read: {e}", path.display())))?;
    String::from_utf8(bytes)
        .map_err(|_| Error::File(format!("{}: not a text file", path.display())))
}
