/* bspram — files the library writes for the user (the parameter file of
 * `bspram probe`, the collectives' cache of g and l): the directories that
 * lead to them are made first. Internal (not installed). */
#ifndef BSPRAM_BASE_OUTPUT_H
#define BSPRAM_BASE_OUTPUT_H

/* mkdir -p of the directories leading to path (not path itself), mode 0755;
 * failures are left for the caller's open of path to report. */
void bspram__base_make_parents(const char *path);

#endif
