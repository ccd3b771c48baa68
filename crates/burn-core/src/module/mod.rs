//! Modules: structs of parameters and sub-modules, visited and mapped generically.

mod base;
mod constant;
mod display;
mod flag;
mod group;
mod param;
mod param_mapper;
mod quantize;
mod traversal;

pub use base::{Devices, Module, ModuleMapper, ModuleVisitor};
pub use burn_derive::Module;
pub use constant::Ignored;
pub use display::{
    Attribute, Content, DisplaySettings, ModuleDisplay, ModuleDisplayDefault, extract_type_name,
};
pub use flag::Flag;
pub use group::{ParamGroup, ParamGroupError, list_param_ids};
pub use param::{Param, ParamId, Parameter, ParameterValue};
pub use param_mapper::ParamMapper;
pub use quantize::Quantizer;
