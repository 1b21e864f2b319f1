/* gcno discovery of the gcda receiver (gcda_state.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gcda_state.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/outfile.h"

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);
	return n >= k && strcmp(s + n - k, suf) == 0;
}

/* Adds one gcno file; rel is its name relative to the gcno directory. A
 * file already added (by another name) is skipped. */
static int add_file(struct gcda_state *t, const char *path, const char *rel,
                    char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) == 0)
		for (size_t i = 0; i < t->nfiles; i++)
			if (t->files[i].dev == st.st_dev &&
			    t->files[i].ino == st.st_ino)
				return 0;
	if (t->nfiles >= MAX_GCNO) {
		snprintf(err, errlen, "gcda: more than %d gcno files", MAX_GCNO);
		return LT_ERR_INVAL;
	}
	struct gfile *f = &t->files[t->nfiles];
	memset(f, 0, sizeof(*f));
	f->gcno_path = strdup(path);
	size_t n = strlen(rel);
	char *r = malloc(n + 1);
	if (!f->gcno_path || !r) {
		free(r);
		return LT_ERR_NOMEM;
	}
	memcpy(r, rel, n + 1);
	if (ends_with(r, ".gcno"))
		memcpy(r + n - 5, ".gcda", 5);
	if (t->outdir) {
		f->gcda_path = lt_path_join(t->outdir, r);
		free(r);
	} else {
		free(r);
		size_t pn = strlen(path);
		f->gcda_path = malloc(pn + 6);
		if (f->gcda_path) {
			memcpy(f->gcda_path, path, pn + 1);
			if (ends_with(path, ".gcno"))
				memcpy(f->gcda_path + pn - 5, ".gcda", 5);
			else
				strcat(f->gcda_path, ".gcda");
		}
	}
	if (!f->gcda_path)
		return LT_ERR_NOMEM;
	int rc = lt_gcno_read_file(path, &f->g, err, errlen);
	if (rc)
		return rc;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	t->nfiles++;
	return 0;
}

/* Adds every *.gcno under dir (rel: its path below the top directory). */
static int scan_dir(struct gcda_state *t, const char *dir, const char *rel,
                    int depth, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "gcda: cannot read gcno directory %s", dir);
		return LT_ERR_IO;
	}
	int rc = 0;
	struct dirent *de;
	while (!rc && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *p = lt_path_join(dir, de->d_name);
		char *r = rel[0] ? lt_path_join(rel, de->d_name) :
				   strdup(de->d_name);
		struct stat st;
		if (!p || !r)
			rc = LT_ERR_NOMEM;
		else if (stat(p, &st) == 0 && S_ISDIR(st.st_mode) && depth > 0)
			rc = scan_dir(t, p, r, depth - 1, err, errlen);
		else if (S_ISREG(st.st_mode) && ends_with(de->d_name, ".gcno"))
			rc = add_file(t, p, r, err, errlen);
		free(p);
		free(r);
	}
	closedir(d);
	return rc;
}

/* Scans the compilation directory of every unit of the session's ELFs
 * (an ELF copied away from its build still names where it was built);
 * directories that are gone are passed over. */
static int scan_unit_dirs(struct gcda_state *t, char *err, size_t errlen)
{
	int rc = 0;
	for (size_t m = 0; !rc && m < t->s->images->n; m++) {
		char derr[256];
		const struct lt_image *img = t->s->images->sel[m].img;
		const struct lt_dwarf *dw = lt_dwarf_get(img, derr, sizeof(derr));
		for (size_t u = 0; dw && dw->unit_dir && !rc && u < dw->nunits;
		     u++) {
			const char *dir = dw->unit_dir[u];
			struct stat st;
			size_t k = 0;
			while (k < u && dw->unit_dir[k] != dir)
				k++;
			if (!dir || k < u || stat(dir, &st) != 0 ||
			    !S_ISDIR(st.st_mode))
				continue;
			rc = scan_dir(t, dir, "", 3, err, errlen);
		}
		lt_dwarf_put(dw);
	}
	return rc;
}

int gcda_find_gcno(struct gcda_state *t, const char *gv, char *err,
                   size_t errlen)
{
	const struct lt_session_info *s = t->s;
	char *list = NULL;
	int rc = 0;
	for (size_t m = 0; !rc && !gv && m < s->images->n; m++) {
		/* Default: the directories holding the ELFs. */
		const char *elf = s->images->sel[m].img->path;
		const char *sl = strrchr(elf, '/');
		free(list);
		list = sl ? strndup(elf, (size_t)(sl - elf)) : strdup(".");
		if (!list)
			rc = LT_ERR_NOMEM;
		else
			rc = scan_dir(t, list, "", 3, err, errlen);
	}
	if (!rc && gv) {
		list = strdup(gv);
		struct stat st;
		if (!list)
			rc = LT_ERR_NOMEM;
		else if (stat(list, &st) == 0 && S_ISDIR(st.st_mode))
			rc = scan_dir(t, list, "", 3, err, errlen);
		else
			for (char *sv, *p = strtok_r(list, ":;", &sv); p && !rc;
			     p = strtok_r(NULL, ":;", &sv)) {
				const char *b = strrchr(p, '/');
				rc = add_file(t, p, b ? b + 1 : p, err, errlen);
			}
	}
	free(list);
	if (!rc && !gv && !t->nfiles)
		rc = scan_unit_dirs(t, err, errlen);
	if (!rc && !t->nfiles) {
		snprintf(err, errlen, "gcda: no .gcno files found (%s)",
		         gv ? gv : "next to the ELFs or in their units' "
		                   "compilation directories");
		rc = LT_ERR_INVAL;
	}
	return rc;
}
