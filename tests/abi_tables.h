/*
 * abi_tables.h — the layout test_abi.c freezes: the offset and size of each
 * field of the shared-memory and trace-file structures, and the constants,
 * as lc_abi.h must have them.  Included by test_abi.c alone, after it
 * defines F and K.
 */
static const struct field slot_fields[] = {
	/* lc_slot */
	F(lc_slot, state, 0, 4), F(lc_slot, flags, 4, 4), F(lc_slot, task, 8, 8),
	F(lc_slot, tid, 16, 4), F(lc_slot, gen, 20, 4), F(lc_slot, nwasted, 24, 4),
	F(lc_slot, xfer_ns, 28, 4), F(lc_slot, wasted, 32, 32),
};

static const struct field seg_fields[] = {
	/* lc_seg_hdr, bytes 0.. */
	F(lc_seg_hdr, magic, 0, 8), F(lc_seg_hdr, abi_major, 8, 2), F(lc_seg_hdr, abi_minor, 10, 2),
	F(lc_seg_hdr, hdr_size, 12, 4), F(lc_seg_hdr, slot_size, 16, 4),
	F(lc_seg_hdr, nslots, 20, 4), F(lc_seg_hdr, seg_size, 24, 8), F(lc_seg_hdr, pid, 32, 4),
	F(lc_seg_hdr, flags, 36, 4), F(lc_seg_hdr, start_ns, 40, 8), F(lc_seg_hdr, nonce, 48, 8),
	F(lc_seg_hdr, proc_start, 56, 8),
	/* lc_seg_hdr, bytes 64.. */
	F(lc_seg_hdr, work_exists, 64, 8), F(lc_seg_hdr, solution_found, 72, 4),
	F(lc_seg_hdr, team, 76, 4), F(lc_seg_hdr, comm, 80, 16), F(lc_seg_hdr, reserved1, 96, 32),
	/* lc_seg_hdr, bytes 128.. */
	F(lc_seg_hdr, slot_hwm, 128, 4), F(lc_seg_hdr, slots_full, 132, 4),
	F(lc_seg_hdr, places_deep, 136, 4), F(lc_seg_hdr, reserved2, 140, 52),
	/* lc_seg_hdr, bytes 192.. */
	F(lc_seg_hdr, tag_seq, 192, 4), F(lc_seg_hdr, ntags, 196, 4),
	F(lc_seg_hdr, tags_full, 200, 4), F(lc_seg_hdr, reserved3, 204, 52),
	/* lc_seg_hdr, bytes 256.. */
	F(lc_seg_hdr, tags, 256, 32 * 16),
	/* lc_seg_hdr, bytes 768.. */
	F(lc_seg_hdr, job_ready, 768, 4), F(lc_seg_hdr, rank, 772, 4),
	F(lc_seg_hdr, job_size, 776, 4), F(lc_seg_hdr, job_flags, 780, 4),
	F(lc_seg_hdr, clock_offset_ns, 784, 8), F(lc_seg_hdr, job_id, 792, 8),
	F(lc_seg_hdr, reserved12, 800, 32),
	/* lc_seg_hdr, bytes 832.. */
	F(lc_seg_hdr, host, 832, 64),
	/* lc_seg_hdr, bytes 896.. */
	F(lc_seg_hdr, sync_n, 896, 4), F(lc_seg_hdr, sync_full, 900, 4),
	F(lc_seg_hdr, reserved14, 904, 56),
	/* lc_seg_hdr, bytes 960.. */
	F(lc_seg_hdr, sync, 960, 48 * 64),
	/* lc_seg_hdr, bytes 4032.. */
	F(lc_seg_hdr, reserved, 4032, 64),
	/* lc_sync_entry */
	F(lc_sync_entry, obj, 0, 8), F(lc_sync_entry, seq, 8, 4), F(lc_sync_entry, name, 16, 48),
	/* lc_tag_entry */
	F(lc_tag_entry, tag, 0, 8), F(lc_tag_entry, depth, 8, 4), F(lc_tag_entry, reserved, 12, 4),
	/* lc_stamp, lc_stamp_entry (ABI 1.5) */
	F(lc_stamp, head, 0, 8), F(lc_stamp, reserved, 8, 24), F(lc_stamp, e, 32, 4 * 24),
	F(lc_stamp_entry, t_ns, 0, 8), F(lc_stamp_entry, place, 8, 8),
	F(lc_stamp_entry, state, 16, 4), F(lc_stamp_entry, flags, 20, 4),
};

static const struct field trace_fields[] = {
	/* lc_trace_hdr */
	F(lc_trace_hdr, magic, 0, 8), F(lc_trace_hdr, abi_major, 8, 2),
	F(lc_trace_hdr, abi_minor, 10, 2), F(lc_trace_hdr, rec_size, 12, 4),
	F(lc_trace_hdr, pid, 16, 4), F(lc_trace_hdr, reserved0, 20, 4),
	F(lc_trace_hdr, nonce, 24, 8), F(lc_trace_hdr, start_ns, 32, 8),
	F(lc_trace_hdr, reserved, 40, 24),
	/* lc_trace_rec */
	F(lc_trace_rec, t_ns, 0, 8), F(lc_trace_rec, op, 8, 2), F(lc_trace_rec, reserved, 10, 2),
	F(lc_trace_rec, slot, 12, 4), F(lc_trace_rec, arg, 16, 8),
};

static const struct konst abi_constants[] = {
	K(LC_WASTED_RING, 4),
	K(LC_SLOT_QUEUE_EMPTY, 1),
	K(LC_ST_NONE, 0),
	K(LC_ST_IDLE, 1),
	K(LC_ST_BUSY, 2),
	K(LC_ST_SYNC, 3),
	K(LC_ST_COMM, 4),
	K(LC_JOB_LOGGP, 1),
	K(LC_ABI_MAJOR, 1),
	K(LC_ABI_VERSION, LC_ABI_MAJOR),
	K(LC_ABI_MINOR, 5),
	K(LC_SEG_PLACES, 4),
	K(LC_SEG_STAMPS, 8),
	K(LC_STAMP_DEPTH, 4),
	K(LC_STAMP_GROUP_NS, 2000),
	K(LC_PLACE_DEPTH, 8),
	K(LC_WAIT_MUTEX, 1),
	K(LC_WAIT_USER, 8),
	K(LC_WAIT_OMP_CRITICAL, 9),
	K(LC_WAIT_OMP_BARRIER, 10),
	K(LC_MPIF_SEND, 1),
	K(LC_MPIF_RECV, 5),
	K(LC_MPIF_ALLREDUCE, 24),
	K(LC_MPIF_WIN_FLUSH_ALL, 49),
	K(LC_MAX_SYNC, 48),
	K(LC_SLOT_SYNC_SHIFT, 8),
	K(LC_SLOT_NO_SYNC, (1u << LC_SLOT_SYNC_SHIFT) - 1),
	K(LC_HDR_SIZE, 4096),
	K(LC_SEG_TRACE, 1),
	K(LC_MAX_TAGS, 32),
	K(LC_SESSION_MAX, 64),
	K(LC_SLOTS_DEFAULT, 256),
	K(LC_SLOTS_MAX, 65536),
	K(LC_OP_STATE, 1),
	K(LC_OP_QUEUE_EMPTY, 2),
	K(LC_OP_TASK, 3),
	K(LC_OP_WASTED, 4),
	K(LC_OP_REGISTER, 5),
	K(LC_OP_RELEASE, 6),
	K(LC_OP_PARALLEL, 7),
	K(LC_OP_SOLUTION, 8),
	K(LC_OP_TEAM, 9),
	K(LC_OP_FRAGMENT_BEGIN, 10),
	K(LC_OP_FRAGMENT_END, 11),
	K(LC_OP_PUSH, 12),
	K(LC_OP_POP, 13),
};
