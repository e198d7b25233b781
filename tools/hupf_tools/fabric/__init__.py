"""hupf's Mininet fabric: P4 switches (bmv2 or Stratum-bmv2) under ONOS, hupf-backends, gNB, data-network and SMF
hosts, all described by one topology file (topologies/*.json) from which the Mininet network, ONOS's netcfg and
docker-compose.yml's fabric are made (docs/FABRIC.md)."""
