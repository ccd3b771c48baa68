//! Modules: structs of parameters and sub-modules, visited and mapped generically.

mod base;
mod constant;
mod display;
mod param;
mod quantize;
mod traversal;

pub use base::{Devices, Module, ModuleMapper, ModuleVisitor};
pub use burn_derive::Module;
pub use constant::Ignored;
pub use display::display_module;
pub use param::{Param, ParamId, Parameter};
pub use quantize::Quantizer;
