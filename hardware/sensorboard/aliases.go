package sensorboard

import (
	"arbiter/board"
	"arbiter/rules"
)

// The protocol-neutral types and values of a board's events, capabilities
// and display now live in package board. These aliases keep the
// simulator and this package's tests readable; new code uses board.
type (
	Event        = board.Event
	EventKind    = board.EventKind
	Health       = board.Health
	Snapshot     = board.Snapshot
	SquareState  = board.SquareState
	ZoneState    = board.ZoneState
	ButtonState  = board.ButtonState
	Ident        = board.Ident
	Side         = board.Side
	ButtonKind   = board.ButtonKind
	ButtonInfo   = board.ButtonInfo
	ZoneInfo     = board.ZoneInfo
	ZoneAction   = board.ZoneAction
	Caps         = board.Caps
	Sensor       = board.Sensor
	Choice       = board.Choice
	LightMode    = board.LightMode
	QuestionKind = board.QuestionKind
)

// Event kinds, health states, sides, buttons and answers (package board).
const (
	EventHello     = board.EventHello
	EventSquare    = board.EventSquare
	EventZone      = board.EventZone
	EventButton    = board.EventButton
	EventHeartbeat = board.EventHeartbeat
	EventSnapshot  = board.EventSnapshot
	EventGap       = board.EventGap
	EventHealth    = board.EventHealth
	EventPong      = board.EventPong
	EventNak       = board.EventNak
	EventError     = board.EventError

	Connecting    = board.Connecting
	Active        = board.Active
	Delayed       = board.Delayed
	NotResponding = board.NotResponding
	Disconnected  = board.Disconnected

	SideFirst  = board.SideFirst
	SideSecond = board.SideSecond
	SideNone   = board.SideNone

	ButtonClock   = board.ButtonClock
	ButtonAdjust  = board.ButtonAdjust
	ButtonArbiter = board.ButtonArbiter
	ButtonAnswer  = board.ButtonAnswer
	ButtonOffer   = board.ButtonOffer
	ButtonResign  = board.ButtonResign
	ButtonClaim   = board.ButtonClaim
	ResignConfirm = board.ResignConfirm

	AnswerYes    = board.AnswerYes
	AnswerNo     = board.AnswerNo
	AnswerChoice = board.AnswerChoice

	ZoneCount   = board.ZoneCount
	ZoneAdded   = board.ZoneAdded
	ZoneRemoved = board.ZoneRemoved
)

// Capabilities, display values and question kinds (package board).
const (
	CapHeight       = board.CapHeight
	CapIdentity     = board.CapIdentity
	CapColor        = board.CapColor
	CapFace         = board.CapFace
	CapZoneCount    = board.CapZoneCount
	CapZoneIdentity = board.CapZoneIdentity
	CapClockDisplay = board.CapClockDisplay
	CapLights       = board.CapLights
	CapText         = board.CapText

	ClockFirstFlag  = board.ClockFirstFlag
	ClockSecondFlag = board.ClockSecondFlag
	ClockPaused     = board.ClockPaused

	LightOff    = board.LightOff
	LightSteady = board.LightSteady
	LightBlink  = board.LightBlink

	ColorDefault = board.ColorDefault
	ColorGood    = board.ColorGood
	ColorBad     = board.ColorBad
	ColorAttn    = board.ColorAttn

	AlertClear   = board.AlertClear
	AlertInfo    = board.AlertInfo
	AlertWarning = board.AlertWarning
	AlertError   = board.AlertError

	QuestionNone    = board.QuestionNone
	QuestionChoose  = board.QuestionChoose
	QuestionPromote = board.QuestionPromote
	MaxChoices      = board.MaxChoices
	MaxChoiceText   = board.MaxChoiceText
)

// SideOf returns the side of c (board.SideOf).
func SideOf(c rules.Color) Side { return board.SideOf(c) }
