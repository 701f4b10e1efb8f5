//! `topoembed-mpi run`: an algorithm on every rank, the report from rank 0.

use mpi::collective::{CommunicatorCollectives, Root};
use mpi::topology::{Communicator, SimpleCommunicator};
use topoembed::runtime::algorithms::{self, rank_program, Algorithm, Check, Problem};
use topoembed::runtime::{Costs, Process, RankStats};
use topoembed::Error;
use topoembed_mpi::communicators;
use topoembed_mpi::transport::MpiTransport;

use crate::{setup, AlgorithmArg, Common, Format, Outcome, Setup};

/// One rank's check and statistics as f64s, for a gather.
const ROW: usize = 10;

fn row(check: &Check, s: &RankStats) -> [f64; ROW] {
    [
        f64::from(u8::from(check.passed)),
        check.error,
        check.tolerance,
        s.messages as f64,
        s.hops as f64,
        s.bytes as f64,
        s.compute,
        s.communication,
        s.waiting,
        s.clock,
    ]
}

fn unrow(r: &[f64]) -> (Check, RankStats) {
    (
        Check {
            passed: r[0] == 1.0,
            error: r[1],
            tolerance: r[2],
        },
        RankStats {
            messages: r[3] as u64,
            hops: r[4] as u64,
            bytes: r[5] as u64,
            compute: r[6],
            communication: r[7],
            waiting: r[8],
            clock: r[9],
        },
    )
}

pub(crate) fn run(
    world: &SimpleCommunicator,
    algorithm: AlgorithmArg,
    common: &Common,
    size: Option<&str>,
    costs: Costs,
    format: Format,
) -> Result<Outcome, Error> {
    costs.check()?;
    let Setup {
        host,
        vt,
        placement,
    } = setup(world, common)?;
    let algorithm = match algorithm {
        AlgorithmArg::Cannon => Algorithm::Cannon,
        AlgorithmArg::Fft => Algorithm::Fft,
        AlgorithmArg::Bitonic => Algorithm::Bitonic,
        AlgorithmArg::Allreduce => Algorithm::Allreduce,
    };
    let problem = Problem::new(algorithm, &vt, size)?;
    let reference = problem.prepare();
    let comm = communicators::host_ordered(world, &placement)?;
    let mut process = Process::new(MpiTransport::new(comm), host, costs);
    world.barrier();
    let started = mpi::time();
    let check = futures::executor::block_on(rank_program(&mut process, &vt, &problem, &reference))?;
    let mine = mpi::time() - started;
    let comm = process.transport().comm();
    let mut wall = 0.0;
    let root = comm.process_at_rank(0);
    let mine_row = row(&check, &process.stats());
    if comm.rank() == 0 {
        root.reduce_into_root(&mine, &mut wall, mpi::collective::SystemOperation::max());
        let mut all = vec![0.0; ROW * comm.size() as usize];
        root.gather_into_root(&mine_row[..], &mut all[..]);
        let results: Vec<(Check, RankStats)> = all.chunks(ROW).map(unrow).collect();
        let report = algorithms::summarise(&vt, &problem, &reference, costs, results, wall)?;
        print_report(&report, format);
        if !report.check.passed {
            return Ok(Outcome::Failed(
                1,
                format!(
                    "{} gave a wrong result on {} of {} ranks",
                    report.algorithm, report.ranks_failed, report.ranks
                ),
            ));
        }
    } else {
        root.reduce_into(&mine, mpi::collective::SystemOperation::max());
        root.gather_into(&mine_row[..]);
    }
    if check.passed {
        Ok(Outcome::Done)
    } else {
        Ok(Outcome::Failed(
            1,
            format!(
                "result check failed: error {} > {}",
                check.error, check.tolerance
            ),
        ))
    }
}

fn print_report(r: &algorithms::RunReport, format: Format) {
    if format == Format::Json {
        match serde_json::to_string_pretty(r) {
            Ok(text) => println!("{text}"),
            Err(e) => eprintln!("error: cannot write the report: {e}"),
        }
        return;
    }
    println!(
        "{} on {} -> {} ({}), {} MPI processes, {}",
        r.algorithm, r.guest, r.host, r.method, r.ranks, r.size
    );
    let verdict = if r.check.passed { "passed" } else { "FAILED" };
    println!(
        "  check: {verdict} on every rank ({} {:.1e}, allowed {:.1e}; reference: {})",
        r.error_meaning, r.check.error, r.check.tolerance, r.reference
    );
    println!(
        "  messages {}, hops {}, bytes {}",
        r.messages, r.hops, r.bytes
    );
    match &r.predicted {
        Some(p) => println!(
            "  modelled time {} (CC recurrence {}), waiting {}",
            r.modelled_time, p.time, r.waiting
        ),
        None => println!("  modelled time {}, waiting {}", r.modelled_time, r.waiting),
    }
    println!(
        "  measured wall time {:.6} s (slowest rank)",
        r.wall_seconds
    );
}
