# The device models built into irqstorm's QEMU (build-qemu.sh passes
# --with-devices-x86_64=irqstorm, this file as configs/devices/x86_64-softmmu/
# irqstorm.mak): the q35 board with everything it selects and implies, less
# the optional devices a -nodefaults guest is never given. They only cost
# build time: the guest's machine is the same (docs/building.md says how
# that was checked).
CONFIG_Q35=y
# The PCIe root port base, which CXL's root port needs and only
# PCI_DEVICES would otherwise select (QEMU 7.2 aborts at start without it).
CONFIG_PCIE_PORT=y
CONFIG_PCI_DEVICES=n
CONFIG_VGA_PCI=n
CONFIG_VIRTIO_VGA=n
CONFIG_QXL=n
CONFIG_TEST_DEVICES=n
CONFIG_ISA_IPMI_KCS=n
CONFIG_ISA_IPMI_BT=n
CONFIG_PCI_IPMI_KCS=n
CONFIG_PCI_IPMI_BT=n
CONFIG_IPMI_SSIF=n
CONFIG_TPM_CRB=n
CONFIG_TPM_TIS_ISA=n
CONFIG_SGA=n
CONFIG_NVDIMM=n
CONFIG_E1000E_PCI_EXPRESS=n
CONFIG_VTD=n
CONFIG_AMD_IOMMU=n
CONFIG_APPLESMC=n
CONFIG_HYPERV=n
CONFIG_SEV=n
CONFIG_SGX=n
CONFIG_PVPANIC_ISA=n
CONFIG_PARALLEL=n
CONFIG_ISA_DEBUG=n
