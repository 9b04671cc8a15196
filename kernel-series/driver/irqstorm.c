// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm guest driver: services the irqstorm QEMU device's interrupts and
 * stamps each stage (hardirq, thread, done) through its registers, in one of
 * three threading modes:
 *
 *   hardirq   IRQF_NO_THREAD: the whole handler in hard interrupt context,
 *             even under threadirqs or PREEMPT_RT (2004's SA_NOTHREAD).
 *   threaded  request_threaded_irq(): a primary handler stamps hardirq and
 *             wakes the thread, which does the work; IRQF_ONESHOT keeps the
 *             level line masked until the thread is done.
 *   forced    plain request_irq(): threaded only when the kernel forces it
 *             (threadirqs, PREEMPT_RT).
 *
 * Register map: include/irqstorm/abi.h (docs/abi.md).
 */
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <irqstorm/abi.h>

#define DRV_NAME "irqstorm"

enum irqstorm_mode {
	IRQSTORM_MODE_HARDIRQ,
	IRQSTORM_MODE_THREADED,
	IRQSTORM_MODE_FORCED,
};

static const char * const irqstorm_mode_names[] = {
	[IRQSTORM_MODE_HARDIRQ] = "hardirq",
	[IRQSTORM_MODE_THREADED] = "threaded",
	[IRQSTORM_MODE_FORCED] = "forced",
};

static char *mode = "threaded";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "Threading mode: hardirq, threaded or forced (default threaded)");

struct irqstorm {
	void __iomem *regs;
	int irq;
	enum irqstorm_mode mode;
	/*
	 * Sequence number handed from the primary handler to the thread.
	 * No lock: IRQF_ONESHOT keeps the line masked from the primary
	 * handler until the thread returns, so they never overlap.
	 */
	u32 seq;
	/* Written only by the handler, read by sysfs: READ_ONCE/WRITE_ONCE. */
	u64 handled;
	u64 spurious;
};

static u32 irqstorm_read(struct irqstorm *st, unsigned int reg)
{
	return readl(st->regs + reg);
}

static void irqstorm_write(struct irqstorm *st, unsigned int reg, u32 val)
{
	writel(val, st->regs + reg);
}

/*
 * Claim channel 0's pending event: its sequence number, or 0 when the
 * interrupt is not ours (counted: on a shared line that is normal, on our
 * own line it is a spurious interrupt).
 */
static u32 irqstorm_claim(struct irqstorm *st)
{
	if (!(irqstorm_read(st, IRQSTORM_REG_STATUS) & BIT(0))) {
		WRITE_ONCE(st->spurious, st->spurious + 1);
		return 0;
	}
	return irqstorm_read(st, IRQSTORM_REG_CH(0, IRQSTORM_CH_SEQ));
}

/* The end of every handler: stamp done, then let the line go. */
static void irqstorm_complete(struct irqstorm *st, u32 seq)
{
	irqstorm_write(st, IRQSTORM_REG_STAMP_DONE, seq);
	irqstorm_write(st, IRQSTORM_REG_ACK, BIT(0));
	WRITE_ONCE(st->handled, st->handled + 1);
}

/*
 * hardirq and forced modes: one handler does everything. Whether it runs in
 * hard interrupt context or in a forced thread is only known at run time,
 * so the first stamp says which.
 */
static irqreturn_t irqstorm_handler(int irq, void *data)
{
	struct irqstorm *st = data;
	u32 seq = irqstorm_claim(st);

	if (!seq)
		return IRQ_NONE;
	irqstorm_write(st, in_hardirq() ? IRQSTORM_REG_STAMP_HARDIRQ :
		       IRQSTORM_REG_STAMP_THREAD, seq);
	irqstorm_complete(st, seq);
	return IRQ_HANDLED;
}

/* threaded mode, primary handler: claim the event and wake the thread. */
static irqreturn_t irqstorm_primary(int irq, void *data)
{
	struct irqstorm *st = data;
	u32 seq = irqstorm_claim(st);

	if (!seq)
		return IRQ_NONE;
	irqstorm_write(st, IRQSTORM_REG_STAMP_HARDIRQ, seq);
	st->seq = seq;
	return IRQ_WAKE_THREAD;
}

/* threaded mode, thread function. */
static irqreturn_t irqstorm_thread(int irq, void *data)
{
	struct irqstorm *st = data;

	irqstorm_write(st, IRQSTORM_REG_STAMP_THREAD, st->seq);
	irqstorm_complete(st, st->seq);
	return IRQ_HANDLED;
}

static int irqstorm_request_irq(struct device *dev, struct irqstorm *st)
{
	switch (st->mode) {
	case IRQSTORM_MODE_HARDIRQ:
		return devm_request_irq(dev, st->irq, irqstorm_handler,
					IRQF_SHARED | IRQF_NO_THREAD,
					DRV_NAME, st);
	case IRQSTORM_MODE_THREADED:
		return devm_request_threaded_irq(dev, st->irq, irqstorm_primary,
						 irqstorm_thread,
						 IRQF_SHARED | IRQF_ONESHOT,
						 DRV_NAME, st);
	case IRQSTORM_MODE_FORCED:
		return devm_request_irq(dev, st->irq, irqstorm_handler,
					IRQF_SHARED, DRV_NAME, st);
	}
	return -EINVAL;
}

/* Stop the storm and wait until no handler or thread is still running. */
static void irqstorm_stop(struct irqstorm *st)
{
	irqstorm_write(st, IRQSTORM_REG_CTRL, 0);
	synchronize_irq(st->irq);
}

static void irqstorm_stop_action(void *data)
{
	irqstorm_stop(data);
}

static ssize_t running_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct irqstorm *st = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n",
			  !!(irqstorm_read(st, IRQSTORM_REG_CTRL) &
			     IRQSTORM_CTRL_RUN));
}

static ssize_t running_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct irqstorm *st = dev_get_drvdata(dev);
	bool run;
	int ret;

	ret = kstrtobool(buf, &run);
	if (ret)
		return ret;
	if (run)
		irqstorm_write(st, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
	else
		irqstorm_stop(st);
	return count;
}
static DEVICE_ATTR_RW(running);

static ssize_t handled_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct irqstorm *st = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", READ_ONCE(st->handled));
}
static DEVICE_ATTR_RO(handled);

static ssize_t spurious_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct irqstorm *st = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", READ_ONCE(st->spurious));
}
static DEVICE_ATTR_RO(spurious);

static ssize_t mode_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct irqstorm *st = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", irqstorm_mode_names[st->mode]);
}
static DEVICE_ATTR_RO(mode);

static ssize_t irq_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	struct irqstorm *st = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", st->irq);
}
static DEVICE_ATTR_RO(irq);

static struct attribute *irqstorm_attrs[] = {
	&dev_attr_running.attr,
	&dev_attr_handled.attr,
	&dev_attr_spurious.attr,
	&dev_attr_mode.attr,
	&dev_attr_irq.attr,
	NULL
};

static const struct attribute_group irqstorm_group = {
	.name = DRV_NAME,
	.attrs = irqstorm_attrs,
};

static const struct attribute_group *irqstorm_groups[] = {
	&irqstorm_group,
	NULL
};

static int irqstorm_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct irqstorm *st;
	u32 version;
	int ret;

	st = devm_kzalloc(dev, sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	ret = match_string(irqstorm_mode_names, ARRAY_SIZE(irqstorm_mode_names),
			   mode);
	if (ret < 0)
		return dev_err_probe(dev, ret, "unknown mode '%s'\n", mode);
	st->mode = ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return dev_err_probe(dev, ret, "cannot enable device\n");
	ret = pcim_iomap_regions(pdev, BIT(IRQSTORM_BAR_REGS), DRV_NAME);
	if (ret)
		return dev_err_probe(dev, ret, "cannot map registers\n");
	st->regs = pcim_iomap_table(pdev)[IRQSTORM_BAR_REGS];

	if (irqstorm_read(st, IRQSTORM_REG_ID) != IRQSTORM_ID_MAGIC)
		return dev_err_probe(dev, -ENODEV, "bad ID register\n");
	version = irqstorm_read(st, IRQSTORM_REG_VERSION);
	if (version != IRQSTORM_ABI_VERSION)
		return dev_err_probe(dev, -ENODEV,
				     "device ABI %u, driver ABI %u\n",
				     version, IRQSTORM_ABI_VERSION);

	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_INTX);
	if (ret < 0)
		return dev_err_probe(dev, ret, "no INTx vector\n");
	st->irq = pci_irq_vector(pdev, 0);
	pci_set_drvdata(pdev, st);

	ret = irqstorm_request_irq(dev, st);
	if (ret)
		return dev_err_probe(dev, ret, "cannot request IRQ %d\n",
				     st->irq);
	/* Registered after the IRQ, so on removal it runs before free_irq(). */
	ret = devm_add_action_or_reset(dev, irqstorm_stop_action, st);
	if (ret)
		return ret;

	dev_info(dev, "IRQ %d, mode %s\n", st->irq, irqstorm_mode_names[st->mode]);
	return 0;
}

static const struct pci_device_id irqstorm_ids[] = {
	{ PCI_DEVICE(IRQSTORM_PCI_VENDOR_ID, IRQSTORM_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, irqstorm_ids);

static struct pci_driver irqstorm_driver = {
	.name = DRV_NAME,
	.id_table = irqstorm_ids,
	.probe = irqstorm_probe,
	.dev_groups = irqstorm_groups,
};
module_pci_driver(irqstorm_driver);

MODULE_DESCRIPTION("irqstorm interrupt-storm test device driver");
MODULE_LICENSE("GPL");
