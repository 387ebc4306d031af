def forward(self,
    x: Tensor) -> Tensor:
  lin = self.lin
  return torch.relu((lin).forward(x, ))
