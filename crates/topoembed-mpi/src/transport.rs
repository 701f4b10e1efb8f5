//! The runtime's [`Transport`] over an MPI communicator. A message is its
//! payload with the sender's modelled clock appended as one more f64; the
//! MPI tag is the runtime's tag, the MPI source the sender.

use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::Tag;
use topoembed::runtime::{Envelope, Transport};
use topoembed::{Error, Result};

/// A rank of a communicator whose ranks are host nodes.
pub struct MpiTransport {
    comm: SimpleCommunicator,
}

impl MpiTransport {
    /// Messages travel on `comm`; its rank r must be host node r.
    pub fn new(comm: SimpleCommunicator) -> MpiTransport {
        MpiTransport { comm }
    }

    /// The communicator.
    pub fn comm(&self) -> &SimpleCommunicator {
        &self.comm
    }
}

fn wire(envelope: &Envelope) -> Vec<f64> {
    let mut buf = Vec::with_capacity(envelope.data.len() + 1);
    buf.extend_from_slice(&envelope.data);
    buf.push(envelope.stamp);
    buf
}

fn unwire(mut buf: Vec<f64>, from: u64, tag: u32) -> Result<Envelope> {
    let stamp = buf
        .pop()
        .ok_or_else(|| Error::Internal(format!("an empty MPI message from rank {from}")))?;
    Ok(Envelope {
        from,
        tag,
        stamp,
        data: buf,
    })
}

impl Transport for MpiTransport {
    fn rank(&self) -> u64 {
        self.comm.rank() as u64
    }

    fn size(&self) -> u64 {
        self.comm.size() as u64
    }

    /// MPI_Send (standard mode: small messages are buffered).
    async fn post(&mut self, to: u64, envelope: Envelope) -> Result<()> {
        let buf = wire(&envelope);
        self.comm
            .process_at_rank(to as i32)
            .send_with_tag(&buf[..], envelope.tag as Tag);
        Ok(())
    }

    /// MPI_Recv of the next message from `from` with `tag` (probed for its size).
    async fn fetch(&mut self, from: u64, tag: u32) -> Result<Envelope> {
        let (buf, _) = self
            .comm
            .process_at_rank(from as i32)
            .receive_vec_with_tag::<f64>(tag as Tag);
        unwire(buf, from, tag)
    }

    /// MPI_Isend, then the receive, then the wait: a shift where every rank
    /// sends a large block at once cannot deadlock.
    async fn post_and_fetch(
        &mut self,
        to: u64,
        envelope: Envelope,
        from: u64,
        tag: u32,
    ) -> Result<Envelope> {
        let buf = wire(&envelope);
        let comm = &self.comm;
        let got = mpi::request::scope(|scope| {
            let sending = comm.process_at_rank(to as i32).immediate_send_with_tag(
                scope,
                &buf[..],
                envelope.tag as Tag,
            );
            let (got, _) = comm
                .process_at_rank(from as i32)
                .receive_vec_with_tag::<f64>(tag as Tag);
            sending.wait_without_status();
            got
        });
        unwire(got, from, tag)
    }
}
