//! The integration tests of burn-optim, in one binary: update rules against float64
//! references, the module side of the optimizers, records, schedulers and convergence.

mod adaptor;
mod common;
mod convergence;
mod record;
mod rules;
mod schedulers;
