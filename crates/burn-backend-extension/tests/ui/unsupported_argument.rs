use burn_backend_extension::backend_extension;

pub trait Backend: Sized {}
pub type FloatTensor<B> = Vec<B>;
pub struct Pair<B>(FloatTensor<B>, FloatTensor<B>);

#[backend_extension(Flex, Cube)]
pub trait MyOps: Backend {
    fn stack(xs: Vec<FloatTensor<Self>>) -> FloatTensor<Self>;
    fn borrowed(x: &FloatTensor<Self>) -> FloatTensor<Self>;
    fn unmarked(pair: Pair<Self>) -> FloatTensor<Self>;
    fn method(&self) -> usize;
}

fn main() {}
