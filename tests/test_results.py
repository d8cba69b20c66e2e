"""A batch's result arrays: views of one buffer (``results.result_arrays``) that behave as arrays of their own."""

from __future__ import annotations

import numpy as np

from cardsim.results import result_arrays


def test_result_arrays_have_their_shapes_dtypes_and_fills_and_do_not_overlap():
    specs = [((5,), np.int64, 1), ((5, 3), np.int8, -1), ((5, 3, 4), np.int16, 0), ((5, 3), np.bool_, 0)]
    arrays = result_arrays(*specs)
    for array, (shape, dtype, fill) in zip(arrays, specs, strict=True):
        assert array.shape == shape and array.dtype == dtype and (array == fill).all()
        assert array.flags.c_contiguous and array.flags.aligned and array.flags.writeable
    for value, array in enumerate(arrays, 2):  # each written in full (a bool as True): none overwrites another
        array[...] = value
    assert [np.unique(array.view(np.uint8)).tolist() for array in arrays[1:]] == [[3], [0, 4], [1]]
    assert arrays[0].tolist() == [2] * 5


def test_result_arrays_of_no_units_are_empty():
    played, scores = result_arrays(((0,), np.int64, 1), ((0, 1, 4), np.int16, 0))
    assert played.shape == (0,) and scores.shape == (0, 1, 4)
