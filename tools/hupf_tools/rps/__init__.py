"""RPS (Retroactive Packet Sampling) monitor: the collector of the control plane's "HRPS" datagrams and the
verifier that turns IN/OUT disclosures into delay and loss estimates (docs/PIPELINE_CONTRACT.md, "RPS")."""
