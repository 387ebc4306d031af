def forward(self,
    x: Tensor) -> Tensor:
  return (self).helper(x, )
