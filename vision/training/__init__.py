"""Dataset building, offline YOLO training, ONNX export and evaluation (train extra only)."""
