//! A matrix product whose result feeds an element-wise program, in one launch:
//! `relu(x·W + b)` computes each dot product, then runs the program on it in registers and
//! writes only the program's outputs (and the product itself when something still reads it).
//!
//! The kernel is direct: one unit per output element (or per 2–4 adjacent ones of a row when
//! `rhs`'s rows and the epilogue's tensors allow vector loads) walks a row of `lhs` and the
//! columns of `rhs` (through their strides, batch dims broadcast), accumulating in the compute
//! dtype.
//! That is the algorithm cubek runs on software adapters (its naive kernel), so there the fused
//! launch only saves work. cubek 0.3's public launch takes no epilogue (its `MatmulArgs` would
//! need a custom output view), so on hardware adapters, where cubek's tiled kernels are far
//! faster for large products, [`supports_matmul`] keeps the fused kernel to small products.

use super::program::KernelProgram;
use super::reduce::{FusedEpilogue, epilogue_step, output_views, scalar_args, views};
use super::{FusedProgram, float_compute, supported};
use crate::dtype::{bool_dtype, elem_type};
use crate::kernel::int_matmul::{DirectProduct, product_starts, whole_buffer};
use crate::launch::{address_type, before_launch, elementwise_geometry, vector_size};
use crate::{CubeDevice, CubeTensor, RuntimeId};
use burn_backend::{DType, Shape};
use cubecl::prelude::*;
use cubecl::std::FastDivmod;
use cubecl::std::tensor::layout::linear::{LinearView, LinearViewMut};

/// On a hardware adapter, the largest product (`m·n·k` summed over the batch) the direct fused
/// kernel takes; larger ones run through cubek's tiled kernels, then the program on its own.
pub const HARDWARE_FUSED_MATMUL_MAX_WORK: usize = 1 << 22;

/// One unit per `N` adjacent outputs of a row: the dot products (a row of `lhs` times `N`
/// adjacent columns of `rhs`, read as one vector), then the epilogue program on them.
#[cube(launch, address_type = "dynamic")]
#[allow(clippy::too_many_arguments, clippy::extra_unused_type_parameters)]
fn fused_matmul_kernel<F: Float, A: Float, I: Numeric, B: Numeric, N: Size>(
    lhs: &[F],
    rhs: &[Vector<F, N>],
    product: &mut [Vector<F, N>],
    sizes: Sequence<FastDivmod<usize>>,
    lhs_moves: Sequence<usize>,
    rhs_moves: Sequence<usize>,
    units: usize,
    vector: usize,
    k: usize,
    lhs_step: usize,
    rhs_vector_step: usize,
    float_inputs: Sequence<LinearView<'_, Vector<F, N>>>,
    int_inputs: Sequence<LinearView<'_, Vector<I, N>>>,
    bool_inputs: Sequence<LinearView<'_, Vector<B, N>>>,
    scalars: Sequence<InputScalar>,
    float_outputs: Sequence<LinearViewMut<'_, Vector<F, N>>>,
    int_outputs: Sequence<LinearViewMut<'_, Vector<I, N>>>,
    bool_outputs: Sequence<LinearViewMut<'_, Vector<B, N>>>,
    #[comptime] write_product: bool,
    #[comptime] program: Option<KernelProgram>,
    #[define(F, A, I, B)] _dtypes: [ElemType; 4],
) {
    if ABSOLUTE_POS >= units {
        terminate!();
    }
    let (mut at_lhs, at_rhs) =
        product_starts(&sizes, &lhs_moves, &rhs_moves, ABSOLUTE_POS * vector);
    // The host checked that every `rhs` position reached is a multiple of `vector`.
    let mut at_rhs = at_rhs / vector;
    let mut acc = Vector::<A, N>::new(A::from_int(0));
    for _ in 0..k {
        let a = Vector::<A, N>::new(A::cast_from(lhs[at_lhs]));
        acc += a * Vector::<A, N>::cast_from(rhs[at_rhs]);
        at_lhs += lhs_step;
        at_rhs += rhs_vector_step;
    }
    if comptime![write_product] {
        product[ABSOLUTE_POS] = Vector::cast_from(acc);
    }
    epilogue_step::<F, A, I, B, N>(
        &float_inputs,
        &int_inputs,
        &bool_inputs,
        &scalars,
        &float_outputs,
        &int_outputs,
        &bool_outputs,
        ABSOLUTE_POS,
        acc,
        &program,
    );
}

/// Whether `lhs × rhs` (shapes `[.., m, k]` and `[.., k, n]`, of the float `dtype`) followed by
/// `epilogue` (whose last input is the product) runs as one launch on `device`: the program is
/// supported (see [`super::supports`]) with the product's dtype as its one float dtype, `k`
/// and the output are non-empty, and on a hardware adapter the product is at most
/// [`HARDWARE_FUSED_MATMUL_MAX_WORK`].
pub fn supports_matmul(
    lhs: &Shape,
    rhs: &Shape,
    dtype: DType,
    epilogue: &FusedProgram,
    device: &CubeDevice,
) -> bool {
    let Ok(checked) = epilogue.check() else {
        return false;
    };
    let (l, r) = (&lhs.dims, &rhs.dims);
    if l.len() < 2 || r.len() < 2 || l[l.len() - 1] != r[r.len() - 2] {
        return false;
    }
    let (m, k, n) = (l[l.len() - 2], l[l.len() - 1], r[r.len() - 1]);
    let batch = |dims: &[usize]| Shape::from(dims[..dims.len() - 2].to_vec());
    let Some(batches) = batch(l).broadcast(&batch(r)) else {
        return false;
    };
    let work = batches.num_elements() * m * n * k;
    let client = device.client();
    let software =
        device.runtime() == RuntimeId::Wgpu && client.properties().identity.physical.is_none();
    dtype.is_float()
        && epilogue.inputs.last() == Some(&dtype)
        && checked.float == Some(dtype)
        && work > 0
        && (software || work <= HARDWARE_FUSED_MATMUL_MAX_WORK)
        && supported(&checked, epilogue, &client, device.runtime(), 3)
}

/// What a fused product produces.
#[derive(Debug)]
pub struct FusedMatmul {
    /// The product itself, when asked for (something after the run still reads it).
    pub product: Option<CubeTensor>,
    /// The epilogue's outputs (the product's shape), in the order of its program's outputs.
    pub outputs: Vec<CubeTensor>,
}

/// `lhs × rhs` (batch dims broadcast, operands read through their strides), then `epilogue` on
/// each element of the product, in one launch. The epilogue's other inputs broadcast to the
/// product's shape.
///
/// # Panics
///
/// When the operands do not multiply (see [`crate::kernel::matmul`]) or [`supports_matmul`]
/// is false.
pub fn launch_fused_matmul(
    lhs: CubeTensor,
    rhs: CubeTensor,
    epilogue: FusedEpilogue,
    write_product: bool,
) -> FusedMatmul {
    let dtype = lhs.dtype;
    assert!(
        supports_matmul(
            &lhs.shape,
            &rhs.shape,
            dtype,
            &epilogue.program,
            &lhs.device
        ),
        "launch_fused_matmul: {:?} × {:?} then {:?} cannot run fused",
        lhs.shape.dims,
        rhs.shape.dims,
        epilogue.program
    );
    let direct = DirectProduct::new("fused matmul", lhs, rhs);
    let shape = direct.out_shape.clone();
    let checked = epilogue
        .program
        .check()
        .expect("checked by supports_matmul");
    let kernel = checked.kernel;
    let first = &direct.lhs;
    let client = first.client.clone();
    let outputs: Vec<CubeTensor> = kernel
        .outputs
        .iter()
        .map(|&(local, _, _)| {
            first.empty_like(shape.clone(), epilogue.program.locals[local as usize])
        })
        .collect();
    let rank = shape.num_dims();
    let others: Vec<CubeTensor> = epilogue
        .inputs
        .iter()
        .map(|t| t.clone().unsqueeze_to(rank))
        .collect();
    let operands: Vec<&CubeTensor> = [&direct.lhs, &direct.rhs]
        .into_iter()
        .chain(&others)
        .chain(&outputs)
        .collect();
    // `N` adjacent outputs per unit where the epilogue's tensors and `rhs`'s rows allow vectors.
    let elem_size = operands.iter().map(|t| t.dtype.size()).max().unwrap_or(1);
    let epilogue_tensors: Vec<&CubeTensor> = others.iter().chain(&outputs).collect();
    let vector = vector_size(&client, &shape, &epilogue_tensors, elem_size).min(vector_size(
        &client,
        &direct.rhs.shape,
        &[&direct.rhs],
        elem_size,
    ));
    // Without a product to keep, the kernel gets a placeholder it never writes: one vector
    // long, since WGSL binds it as an array of vectors and WGPU refuses a smaller buffer.
    let product = if write_product {
        first.empty_contiguous_like(shape.clone(), dtype)
    } else {
        first.empty_contiguous_like(Shape::new([vector]), dtype)
    };
    let addresses = address_type(&[operands.as_slice(), &[&product]].concat());
    let [float_inputs, int_inputs, bool_inputs] =
        views(&others, &kernel.inputs[..kernel.inputs.len() - 1], &shape);
    let [float_outputs, int_outputs, bool_outputs] = output_views(&outputs, &kernel.outputs);
    let compute = float_compute(dtype);
    let launch_scalars = scalar_args(&epilogue.scalars, &epilogue.program.scalars, compute);
    let units = shape.num_elements() / vector;
    let (cube_count, cube_dim) = elementwise_geometry(&client, units);
    let int = checked.int.unwrap_or(DType::I32);
    let boolean = checked.bool.unwrap_or_else(|| bool_dtype(&client));
    before_launch(&client);
    fused_matmul_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        addresses,
        vector,
        whole_buffer(&direct.lhs),
        whole_buffer(&direct.rhs),
        whole_buffer(&product),
        direct.sizes.iter().copied().collect(),
        direct.lhs_moves.iter().copied().collect(),
        direct.rhs_moves.iter().copied().collect(),
        units,
        vector,
        direct.k,
        direct.lhs_step,
        direct.rhs_step / vector,
        float_inputs.into_iter().collect(),
        int_inputs.into_iter().collect(),
        bool_inputs.into_iter().collect(),
        launch_scalars.into_iter().collect(),
        float_outputs.into_iter().collect(),
        int_outputs.into_iter().collect(),
        bool_outputs.into_iter().collect(),
        write_product,
        Some(kernel),
        [
            elem_type(dtype),
            elem_type(compute),
            elem_type(int),
            elem_type(boolean),
        ],
    );
    FusedMatmul {
        product: write_product.then_some(product),
        outputs,
    }
}
