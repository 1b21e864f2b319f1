/* The subset of the QEMU TCG plugin API (version 1) that ltpipe's plugin
 * uses. Debian 12 packages qemu 7.2 without its qemu-plugin.h, so these
 * declarations are written here from the facts of QEMU 7.2's
 * include/qemu/qemu-plugin.h (QEMU_PLUGIN_VERSION 1): the types, the
 * qemu_info_t layout, and the prototypes. The functions are resolved at
 * load time from the qemu executable. */
#ifndef LTPIPE_SINKS_QEMU_PLUGIN_API_H
#define LTPIPE_SINKS_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

/* API level this plugin is built against (QEMU 7.2 accepts 0..1). */
#define QEMU_PLUGIN_VERSION 1

/* Opaque id QEMU gives a loaded plugin. */
typedef uint64_t qemu_plugin_id_t;

/* Exported by the plugin: the API level it was built against. */
extern QEMU_PLUGIN_EXPORT int qemu_plugin_version;

/* System information passed to qemu_plugin_install (only live during it). */
typedef struct qemu_info_t {
	const char *target_name; /* guest architecture, e.g. "riscv64" */
	struct {
		int min;         /* oldest API level QEMU supports */
		int cur;         /* newest API level QEMU supports */
	} version;               /* API levels */
	bool system_emulation;   /* true under qemu-system-*, false in user mode */
	union {
		struct {
			int smp_vcpus; /* initial number of vCPUs */
			int max_vcpus; /* maximum number of vCPUs */
		} system;        /* system emulation only */
	};                       /* mode-specific information */
} qemu_info_t;

/* Opaque handles, valid only during the translation callback. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* Whether a callback reads/writes CPU registers (v1: must be NO_REGS). */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
                                            void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id,
                                             unsigned int vcpu_index);

/* Exported by the plugin; called once at load. Returns 0, or non-zero to
 * refuse loading. argv stays valid for the plugin's lifetime. */
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv);

/* Calls cb when a vCPU is created (in user mode: each new thread, on the
 * thread that creates it, before the new one runs; an index freed by a
 * thread that exited is given to the next thread). */
void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id,
                                       qemu_plugin_vcpu_simple_cb_t cb);
/* Calls cb when a vCPU goes away (in user mode: a thread exits, after its
 * last instruction; not for the process's exit). */
void qemu_plugin_register_vcpu_exit_cb(qemu_plugin_id_t id,
                                       qemu_plugin_vcpu_simple_cb_t cb);
/* A system call about to run on vCPU vcpu_index: its number and
 * arguments (user mode). */
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id,
                                              unsigned int vcpu_index,
                                              int64_t num, uint64_t a1,
                                              uint64_t a2, uint64_t a3,
                                              uint64_t a4, uint64_t a5,
                                              uint64_t a6, uint64_t a7,
                                              uint64_t a8);
/* Calls cb before every system call the guest makes. */
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id,
                                          qemu_plugin_vcpu_syscall_cb_t cb);
/* Calls cb for every translated block. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
/* Number of guest instructions in a block. */
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
/* The idx-th instruction of a block. */
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
                                                 size_t idx);
/* The instruction's bytes (valid during the translation callback). */
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
/* The instruction's size in bytes. */
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
/* The instruction's virtual address. */
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
/* Calls cb(vcpu, userdata) each time the instruction is executed (before
 * it executes). */
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
                                            qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags,
                                            void *userdata);
/* Calls cb when QEMU exits. */
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                    qemu_plugin_udata_cb_t cb,
                                    void *userdata);

/* User mode: the program's code segment and entry point as loaded. */
uint64_t qemu_plugin_start_code(void);
uint64_t qemu_plugin_end_code(void);
uint64_t qemu_plugin_entry_code(void);
/* The path of the program being run (a copy the caller frees). */
const char *qemu_plugin_path_to_binary(void);

#endif
