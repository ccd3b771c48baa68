use burn_backend_extension::backend_extension;

pub trait Backend: Sized {}
pub type FloatTensor<B> = Vec<B>;

#[backend_extension(Flex, Cube, Autodiff)]
pub trait MyOps: Backend {
    fn constant(len: usize, value: f32) -> FloatTensor<Self>;
}

fn main() {}
