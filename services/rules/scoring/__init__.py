"""Settlement: the patterns a win holds, its 番, and who pays what."""
