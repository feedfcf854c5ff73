// Application commands (slash, user and message context menus, the Activity entry point) and their per-guild permissions, validated at preview, with drift detection.
package discordcommands
