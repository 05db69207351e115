# expect: none
# The user's LoRA config check fails: their own assert demands that alpha be a multiple of the
# rank. An assertion in their code with their own message, not a PyTorch error.
import torch.nn as nn

config = {"r": 6, "alpha": 16, "target_modules": ["q_proj", "v_proj"], "dropout": 0.05}


def check_lora_config(cfg):
    assert cfg["alpha"] % cfg["r"] == 0, (
        f"lora alpha ({cfg['alpha']}) must be a multiple of r ({cfg['r']})"
    )
    assert 0 <= cfg["dropout"] < 1, "dropout must be in [0, 1)"


print("model:", nn.Linear(768, 768))
print("LoRA config:", config)
check_lora_config(config)
print("config ok")
