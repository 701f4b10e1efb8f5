//! The shell around the tool: `completions`.

use clap::Args;

/// The arguments of `Completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    pub shell: clap_complete::Shell,
}
