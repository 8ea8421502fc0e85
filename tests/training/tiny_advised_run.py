"""The settings of the tests' tiny advised runs (one env in the process, two 32-step rollouts, a 16-unit net,
heuristic opponents): each test adds its advisor and the rest."""

TINY_ADVISED_RUN = {
    "total_steps": 64,
    "n_envs": 1,
    "n_steps": 32,
    "batch_size": 32,
    "n_epochs": 1,
    "net_arch": [16],
    "opponents": ["heuristic"],
    "eval_every": 0,
    "checkpoint_every": 32,
}
