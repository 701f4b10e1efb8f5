//! The shell around the tool: `completions`.

use clap::Args;

#[allow(unused_imports)]
use super::help::*;

/// The arguments of `Completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    pub shell: clap_complete::Shell,
}
