/* Stand-in for a configure-generated config.h (host-only settings); intentionally empty. */
#pragma once
