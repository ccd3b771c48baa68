//! The connectionist temporal classification loss (`torch.nn.functional.ctc_loss` with
//! `reduction='none'`), the forward (alpha) recursion in log space over the time steps, composed
//! from tensor operations so that it differentiates with respect to the log-probabilities.

use crate::tensor::check;
use crate::{Bool, Int, Tensor, TensorData};

/// `log(exp(a) + exp(b) + exp(c))` element-wise, exact where every term is `-∞` (giving `-∞`
/// with a zero gradient, where a plain formula would give NaN).
fn log_sum_exp3(a: Tensor<2>, b: Tensor<2>, c: Tensor<2>) -> Tensor<2> {
    let max = a.clone().max_pair(b.clone()).max_pair(c.clone());
    let none = max.clone().equal_elem(f64::NEG_INFINITY);
    let max = max.mask_fill(none.clone(), 0.0);
    let sum = (a - max.clone()).exp() + (b - max.clone()).exp() + (c - max.clone()).exp();
    let empty = sum.clone().equal_elem(0.0);
    (sum.mask_fill(empty.clone(), 1.0).log() + max).mask_fill(empty, f64::NEG_INFINITY)
}

/// `x [n, l]` moved `by` places right along the labels, `-∞` filling the start.
fn shifted(x: Tensor<2>, by: usize) -> Tensor<2> {
    let [n, l] = x.dims();
    if by >= l {
        return x.full_like(f64::NEG_INFINITY);
    }
    let head = Tensor::<2>::full([n, by], f64::NEG_INFINITY, (&x.device(), x.dtype()));
    Tensor::cat(vec![head, x.narrow(1, 0, l - by)], 1)
}

/// The CTC loss of each sequence of a batch: `-log p(target | input)` summed over every
/// alignment of the target (blanks between and around its labels, labels repeated) to the
/// input's time steps.
///
/// `log_probs [time, batch, classes]` are log-probabilities (a log-softmax over classes),
/// `targets [batch, max_target]` the label sequences (padded past `target_lengths`), and
/// `input_lengths`, `target_lengths` `[batch]` the lengths used; `blank` is the blank class.
/// Returns `[batch]` losses, `∞` where no alignment fits (a target too long for its input).
pub fn ctc_loss(
    log_probs: Tensor<3>,
    targets: Tensor<2, Int>,
    input_lengths: Tensor<1, Int>,
    target_lengths: Tensor<1, Int>,
    blank: usize,
) -> Tensor<1> {
    let op = "ctc_loss";
    let [time, batch, classes] = log_probs.dims();
    let [target_batch, max_target] = targets.dims();
    if target_batch != batch
        || input_lengths.dims() != [batch]
        || target_lengths.dims() != [batch]
        || blank >= classes
    {
        check::fail(
            op,
            format_args!(
                "expected log_probs [time, batch, classes], targets [batch, s], lengths [batch] and blank < classes, got {:?}, {:?}, {:?}, {:?}, blank {blank}",
                log_probs.dims(),
                targets.dims(),
                input_lengths.dims(),
                target_lengths.dims()
            ),
        );
    }
    let device = log_probs.device();
    let read = |t: Tensor<1, Int>| -> Vec<usize> {
        t.into_data()
            .iter::<i64>()
            .map(|v| v.max(0) as usize)
            .collect()
    };
    let (inputs, lengths) = (read(input_lengths), read(target_lengths));
    if let Some(b) = (0..batch).find(|&b| inputs[b] > time || lengths[b] > max_target) {
        check::fail(
            op,
            format_args!(
                "sequence {b} has input length {} (time {time}) and target length {} (targets hold {max_target})",
                inputs[b], lengths[b]
            ),
        );
    }
    // The extended labels: blank, t₁, blank, t₂, …, blank, as `[batch, 2·max_target + 1]`.
    let labels = targets.into_data().iter::<i64>().collect::<Vec<_>>();
    let width = 2 * max_target + 1;
    let mut extended = vec![blank as i64; batch * width];
    let mut skip = vec![false; batch * width];
    for b in 0..batch {
        // Past the target's length, the padding (any value) reads as blanks, never reached.
        for s in 0..lengths[b] {
            let label = labels[b * max_target + s];
            if label < 0 || label as usize >= classes {
                check::fail(
                    op,
                    format_args!("target {b} holds label {label}, outside 0..{classes}"),
                );
            }
            extended[b * width + 2 * s + 1] = label;
            // A label may follow the previous one directly unless they are equal.
            skip[b * width + 2 * s + 1] = s > 0 && label != labels[b * max_target + s - 1];
        }
    }
    let extended_t =
        Tensor::<2, Int>::from_data(TensorData::new(extended, [batch, width]), &device);
    let no_skip =
        Tensor::<2, Bool>::from_data(TensorData::new(skip, [batch, width]), &device).bool_not();
    // Alignments start at the first blank or the first label.
    let start: Vec<bool> = (0..batch * width).map(|i| i % width >= 2).collect();
    let not_start = Tensor::<2, Bool>::from_data(TensorData::new(start, [batch, width]), &device);
    let emission = |t: usize| -> Tensor<2> {
        let step: Tensor<2> = log_probs.clone().narrow(0, t, 1).reshape([batch, classes]);
        step.gather(1, extended_t.clone())
    };
    let mut alpha = emission(0).mask_fill(not_start, f64::NEG_INFINITY);
    for t in 1..time {
        let stay = alpha.clone();
        let advance = shifted(alpha.clone(), 1);
        let jump = shifted(alpha.clone(), 2).mask_fill(no_skip.clone(), f64::NEG_INFINITY);
        let next = log_sum_exp3(stay, advance, jump) + emission(t);
        // Sequences already past their input length keep their alpha.
        let finished: Vec<bool> = (0..batch)
            .flat_map(|b| core::iter::repeat_n(t >= inputs[b], width))
            .collect();
        let finished = TensorData::new(finished, [batch, width]);
        alpha = next.mask_where(Tensor::<2, Bool>::from_data(finished, &device), alpha);
    }
    // The alignment ends at the last blank or the last label of each target.
    let ends: Vec<i64> = (0..batch)
        .flat_map(|b| {
            let last = 2 * lengths[b];
            [
                (b * width + last) as i64,
                (b * width + last.saturating_sub(1)) as i64,
            ]
        })
        .collect();
    let ends = Tensor::<1, Int>::from_data(TensorData::new(ends, [2 * batch]), &device);
    let finals: Tensor<2> = alpha
        .reshape([batch * width])
        .select(0, ends)
        .reshape([batch, 2]);
    let [first, second] = [0, 1].map(|i| finals.clone().narrow(1, i, 1));
    // An empty target ends at its only blank: count it once.
    let empty: Vec<bool> = lengths.iter().map(|&len| len == 0).collect();
    let empty = Tensor::<2, Bool>::from_data(TensorData::new(empty, [batch, 1]), &device);
    let second = second.mask_fill(empty, f64::NEG_INFINITY);
    let never = first.full_like(f64::NEG_INFINITY);
    let loss = log_sum_exp3(first, second, never).neg();
    // No time steps: only the empty target is possible (loss 0), any other is not (∞).
    let no_time: Vec<bool> = inputs.iter().map(|&len| len == 0).collect();
    let fixed: Vec<f64> = lengths
        .iter()
        .map(|&len| if len == 0 { 0.0 } else { f64::INFINITY })
        .collect();
    let no_time = Tensor::<2, Bool>::from_data(TensorData::new(no_time, [batch, 1]), &device);
    let fixed = Tensor::<2>::from_data(TensorData::new(fixed, [batch, 1]), (&device, loss.dtype()));
    loss.mask_where(no_time, fixed).reshape([batch])
}
