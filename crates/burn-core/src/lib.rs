//! Modules and configs over the public tensor API: the [`module::Module`] trait and
//! [`module::Param`], `#[derive(Module)]`, and [`config::Config`] with `#[derive(Config)]`.
//! No type here carries a backend: a module's device is that of its parameters.
#![warn(missing_docs)]

// The derives name `burn::…`; inside this crate that is the crate itself.
extern crate self as burn;

pub mod config;
pub mod module;
pub mod store;

pub use burn_derive::{Config, Module};
/// The tensor API the modules are written over.
pub use burn_tensor as tensor;
/// serde, for the code `#[derive(Config)]` generates.
pub use serde;
