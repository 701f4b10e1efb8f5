//! Run control of the long searches: stopping a solve in progress
//! ([`interrupt`]: Ctrl-C, budgets) and the record of refuted vectors that
//! lets a stopped run go on ([`record`]).

pub(in crate::optimal) mod interrupt;
pub(in crate::optimal) mod record;
