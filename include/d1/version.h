/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file version.h
 * @brief The library's release, for a user to say which one they run.
 *
 * The one place the version is written: CMake's project(VERSION) and the
 * package config's version file read it from here (CMakeLists.txt), and
 * CHANGELOG.md has an entry for each release.
 */
#ifndef D1_VERSION_H
#define D1_VERSION_H

/** @defgroup d1_version Release
 * @{ */

#define D1_VERSION_MAJOR 0 /**< Incompatible API or report-format changes (while 0: any minor). */
#define D1_VERSION_MINOR 2 /**< Features, compatible within a major. */
#define D1_VERSION_PATCH 0 /**< Fixes. */
/** "MAJOR.MINOR.PATCH". */
#define D1_VERSION_STRING "0.2.0"

/** @} */

#endif /* D1_VERSION_H */
