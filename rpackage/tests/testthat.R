library(testthat)
library(propstab)

test_check("propstab")
