//! `Display` for modules (written by `#[derive(Module)]`): the tree of sub-modules and
//! parameters by name, each parameter with its shape, and the number of parameters.

use super::{Module, ModuleVisitor, Param};
use crate::tensor::{Bool, Int, Tensor};
use core::fmt;

/// One node of the tree: a sub-module or a parameter (a leaf with a shape).
#[derive(Default)]
struct Node {
    name: String,
    shape: Option<Vec<usize>>,
    children: Vec<Node>,
}

/// Builds the tree from the visit `#[derive(Module)]` writes.
#[derive(Default)]
struct TreeBuilder {
    stack: Vec<Node>,
    params: usize,
}

impl TreeBuilder {
    fn leaf(&mut self, dims: Vec<usize>) {
        self.params += dims.iter().product::<usize>();
        if let Some(node) = self.stack.last_mut() {
            node.shape = Some(dims);
        }
    }
}

impl ModuleVisitor for TreeBuilder {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.stack.push(Node {
            name: name.to_string(),
            ..Node::default()
        });
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        let node = self
            .stack
            .pop()
            .expect("exit_module matches an enter_module");
        if let Some(parent) = self.stack.last_mut() {
            parent.children.push(node);
        }
    }

    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.leaf(param.lazy_shape().dims.to_vec());
    }

    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.leaf(param.lazy_shape().dims.to_vec());
    }

    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.leaf(param.lazy_shape().dims.to_vec());
    }
}

/// Writes `module` as `Name { child { weight: [2, 3] } }` over several indented lines, ending
/// with its parameter count (`params: 9`). Shapes of lazy parameters are read without
/// initializing them.
pub fn display_module<M: Module>(
    module: &M,
    name: &str,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    let mut builder = TreeBuilder::default();
    builder.stack.push(Node {
        name: name.to_string(),
        ..Node::default()
    });
    module.visit(&mut builder);
    let root = builder.stack.pop().expect("the root node");
    write_node(&root, 0, f)?;
    write!(f, "\nparams: {}", builder.params)
}

fn write_node(node: &Node, depth: usize, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let indent = "  ".repeat(depth);
    match (&node.shape, node.children.is_empty()) {
        (Some(shape), true) => write!(f, "{indent}{}: {shape:?}", node.name),
        (_, true) if depth > 0 => write!(f, "{indent}{}", node.name),
        _ => {
            writeln!(f, "{indent}{} {{", node.name)?;
            for child in &node.children {
                write_node(child, depth + 1, f)?;
                writeln!(f)?;
            }
            write!(f, "{indent}}}")
        }
    }
}
