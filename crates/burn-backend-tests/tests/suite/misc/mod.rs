//! Behaviour beyond single ops: misuse panics, clone invariance, threads, the settings lock,
//! random reproducibility, the device itself.

mod clone;
mod device;
mod empty;
mod large;
mod mixed;
mod panics;
mod random;
mod settings;
mod threads;
