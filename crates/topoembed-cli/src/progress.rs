//! A progress bar for long computations: shown on a terminal only, after the
//! work has run for a second, never in JSON/CSV mode.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use topoembed::Progress;

/// Draws `progress` on stderr until dropped.
pub struct Bar {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Bar {
    /// Starts watching `progress`; `enabled` is false for machine-readable output.
    pub fn start(progress: Arc<Progress>, label: String, enabled: bool) -> Bar {
        let stop = Arc::new(AtomicBool::new(false));
        if !enabled || !std::io::stderr().is_terminal() {
            return Bar { stop, thread: None };
        }
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let mut bar: Option<ProgressBar> = None;
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let (done, total) = progress.get();
                if bar.is_none() && started.elapsed() >= Duration::from_secs(1) {
                    // Work of unknown size (a search) gets a counter, not a bar.
                    let (b, template) = match total {
                        0 => (
                            ProgressBar::new_spinner(),
                            "{msg} [{elapsed_precise}] {spinner} {pos}",
                        ),
                        _ => (
                            ProgressBar::new(total),
                            "{msg} [{elapsed_precise}] {wide_bar} {percent}% (eta {eta})",
                        ),
                    };
                    b.set_style(
                        ProgressStyle::with_template(template)
                            .unwrap_or_else(|_| ProgressStyle::default_bar()),
                    );
                    b.set_message(label.clone());
                    bar = Some(b);
                }
                if let Some(b) = &bar {
                    if total > 0 {
                        // An estimated total may be passed: the bar stays full.
                        b.set_length(total.max(done));
                    }
                    b.set_position(done);
                }
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
        });
        Bar {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
