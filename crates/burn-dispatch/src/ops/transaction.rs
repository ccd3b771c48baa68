//! Transactions: the contract's default (each tensor read in turn through its backend).

use super::prelude::*;

impl TransactionOps<Self> for Dispatch {}
