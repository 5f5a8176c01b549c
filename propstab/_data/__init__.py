"""Input data: selection and rank matrices, similarity and importance matrices, file readers, the Gram product."""
