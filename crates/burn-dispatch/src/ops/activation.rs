//! Activations routed to the tensor's backend (so its fused versions are used).

use super::prelude::*;

impl ActivationOps<Self> for Dispatch {
    burn_ir::activation_operations!(routed_methods);
}
