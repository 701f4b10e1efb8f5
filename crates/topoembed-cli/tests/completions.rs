//! Shell completions and the man page, generated from the clap definitions.

use crate::common;

use common::{assert_bad_input, ok, temp_dir};

/// Every subcommand the CLI has, read from its own help.
fn subcommands() -> Vec<String> {
    let help = ok(&["--help"]);
    let start = help.find("Commands:").expect("a Commands section");
    help[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|c| c != "help")
        .collect()
}

#[test]
fn bash_completion_parses_and_knows_every_command() {
    let script = ok(&["completions", "bash"]);
    let dir = temp_dir("completions");
    let path = dir.join("topoembed.bash");
    std::fs::write(&path, &script).unwrap();
    let status = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .status()
        .unwrap();
    assert!(status.success(), "bash -n rejected the script");
    let commands = subcommands();
    assert!(commands.len() >= 18, "{commands:?}");
    for c in &commands {
        assert!(script.contains(c.as_str()), "bash completion lacks {c}");
    }
    // Options of a subcommand complete too.
    assert!(script.contains("--imbalance") && script.contains("--method"));
}

#[test]
fn zsh_fish_and_powershell_scripts() {
    let zsh = ok(&["completions", "zsh"]);
    assert!(zsh.starts_with("#compdef topoembed"), "{}", &zsh[..40]);
    let fish = ok(&["completions", "fish"]);
    assert!(fish.contains("complete -c topoembed"));
    let ps = ok(&["completions", "powershell"]);
    assert!(ps.contains("Register-ArgumentCompleter"));
    for c in subcommands() {
        assert!(
            zsh.contains(&c) && fish.contains(&c) && ps.contains(&c),
            "{c}"
        );
    }
}

#[test]
fn man_page_has_a_section_per_command() {
    let page = ok(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH topoembed 1"),
        "{}",
        &page[..80]
    );
    for c in subcommands() {
        assert!(
            page.contains(&format!(".TH topoembed-{c} 1")),
            "no page for {c}"
        );
    }
}

#[test]
fn unknown_shell_is_bad_input() {
    assert_bad_input(&["completions", "tcsh"]);
    assert_bad_input(&["completions"]);
}
